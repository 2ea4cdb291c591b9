import { afterAll, beforeAll, expect } from "vitest";
import { checkEveryResponse, ContractChecker, type OpenApiDocument } from "./openapi-contract";

// Setup file of vitest.contract.config.ts: every answer any integration test gets through callRoute (test/request.ts)
// from a documented operation is checked against /openapi.json; a file whose answers differ from it fails.
let checker: ContractChecker;

beforeAll(async () => {
  const { buildOpenApiDocument } = await import("@/lib/openapi/document");
  const document = buildOpenApiDocument("http://localhost:3000") as unknown as OpenApiDocument;
  checker = new ContractChecker(document, { onlyDocumentedPaths: true });
  checkEveryResponse(checker);
});

afterAll(() => {
  checkEveryResponse(null);
  expect(checker.mismatches, "answers that differ from /openapi.json").toEqual([]);
});
