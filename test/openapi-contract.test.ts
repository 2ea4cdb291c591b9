import { describe, expect, it } from "vitest";
import { ContractChecker, type OpenApiDocument } from "./openapi-contract";

// The contract test's checker fails what it must: an undocumented status, a media type the document does not
// list, a body that does not match, a body where none is documented.

const document: OpenApiDocument = {
  components: {
    schemas: { Thing: { type: "object", required: ["id"], properties: { id: { type: "string" } } } },
  },
  paths: {
    "/v1/things/{id}": {
      get: {
        responses: {
          "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } },
          "206": { content: { "text/vtt": { schema: { type: "string" } }, "audio/*": { schema: {} } } },
          "304": {},
        },
      },
    },
  },
};

const exchange = { method: "GET", url: "http://localhost/v1/things/7", contentType: "application/json" };

describe("ContractChecker", () => {
  it("passes an answer as documented", () => {
    const checker = new ContractChecker(document);
    expect(checker.check({ ...exchange, status: 200, text: '{"id":"7"}' })).toEqual([]);
    expect(checker.check({ ...exchange, status: 206, contentType: "audio/wav", text: "RIFF" })).toEqual([]);
    expect(checker.check({ ...exchange, status: 304, contentType: null, text: "" })).toEqual([]);
    expect(checker.mismatches).toEqual([]);
    expect([...checker.seen]).toContain("GET /v1/things/{id} 200 application/json");
  });

  it("fails an undocumented status, an unlisted media type, a wrong body, a body where none is documented", () => {
    const checker = new ContractChecker(document);
    expect(checker.check({ ...exchange, status: 404, text: "{}" })).toEqual([
      "GET /v1/things/{id} 404: status not documented",
    ]);
    expect(checker.check({ ...exchange, status: 200, contentType: "text/plain", text: "7" })[0]).toMatch(
      /Content-Type text\/plain is not one of application\/json/,
    );
    expect(checker.check({ ...exchange, status: 200, text: '{"id":7}' })[0]).toMatch(/does not match the schema/);
    expect(checker.check({ ...exchange, status: 200, text: "not json" })[0]).toMatch(/is not JSON/);
    expect(checker.check({ ...exchange, status: 304, text: "x" })[0]).toMatch(/a body where the document says none/);
    expect(checker.check({ ...exchange, url: "/v1/other", status: 200, text: "{}" })[0]).toMatch(/no such operation/);
    expect(checker.mismatches).toHaveLength(6);
  });
});
