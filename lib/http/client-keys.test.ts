import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clientKeyed, isPrototypeName } from "@/lib/http/client-keys";
import { clipEcho, parseInput, RequestValidationError } from "@/lib/http/validation";
import { readParameters } from "@/lib/oauth/handler";

// Objects built from a client's keys: `__proto__` is kept as the key it was sent as, and reaches no prototype.

describe("a client's keys", () => {
  it("names the three keys that reach a prototype, in any case, and nothing longer", () => {
    for (const name of ["__proto__", "constructor", "prototype", "__PROTO__", "Constructor", "PROTOTYPE"])
      expect(isPrototypeName(name), name).toBe(true);
    for (const name of ["proto", "__proto", "constructors", "prototype-field", "toString", ""])
      expect(isPrototypeName(name), name).toBe(false);
    const keyed = clientKeyed<string>();
    keyed["__proto__"] = "kept";
    expect(Object.keys(keyed)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(keyed)).toBeNull();
  });

  it("are echoed in a validation error as sent, without giving the echo a prototype", () => {
    const sent = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"x": 1}}, "limit": "a"}');
    const echo = clipEcho(sent) as Record<string, unknown>;
    expect(JSON.parse(JSON.stringify(echo))).toEqual(sent);
    expect(Object.keys(echo)).toEqual(["__proto__", "constructor", "limit"]);
    expect((echo as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("are read from an OAuth form as sent", async () => {
    const request = new Request("http://localhost/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "__proto__=a&constructor=b&grant_type=client_credentials",
    });
    const params = await readParameters(request, {});
    expect(Object.entries(params)).toEqual([
      ["__proto__", "a"],
      ["constructor", "b"],
      ["grant_type", "client_credentials"],
    ]);
  });
});

describe("a REST body, query or MCP tool's arguments", () => {
  it("refuses a key that names a prototype, at any depth, with the contract's 422 value_error", () => {
    const schema = z.object({ name: z.string(), filters: z.object({ q: z.string() }).optional() });
    const body = JSON.parse('{"name": "a", "filters": {"q": "b", "__proto__": {"polluted": true}}, "Constructor": {}}');
    const refused = refusal(() => parseInput(schema, body, "body"));
    expect(refused).toEqual([
      expect.objectContaining({ type: "value_error", loc: ["body", "filters", "__proto__"], input: "__proto__" }),
      expect.objectContaining({ type: "value_error", loc: ["body", "Constructor"], input: "Constructor" }),
    ]);
    expect(refusal(() => parseInput(z.object({ q: z.string() }), { q: "x", prototype: "y" }, "query"))).toEqual([
      expect.objectContaining({ type: "value_error", loc: ["query", "prototype"] }),
    ]);
    // A value that only says such a word is a value like any other.
    expect(parseInput(schema, { name: "__proto__" }, "body")).toEqual({ name: "__proto__" });
  });
});

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof RequestValidationError) return error.items;
    throw error;
  }
  return null;
}
