import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { ERROR_CODES_PATH, GENERATED_PATH, generateClientTypes, generateErrorCodes } from "../scripts/generate-types";

describe("@verbatim/client types", () => {
  it("match the app's current /openapi.json (run `npm run client:generate` after changing the API)", async () => {
    const committed = await readFile(GENERATED_PATH, "utf8");
    expect(
      committed === (await generateClientTypes()),
      "client/src/openapi.ts is stale: run `npm run client:generate`",
    ).toBe(true);
  });

  it("carry the app's error-code table unchanged", async () => {
    const committed = await readFile(ERROR_CODES_PATH, "utf8");
    expect(
      committed === (await generateErrorCodes()),
      "client/src/error-codes.ts is stale: run `npm run client:generate`",
    ).toBe(true);
  });
});
