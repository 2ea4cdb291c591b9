import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { ERROR_CODES_ROOT, GENERATED_PATH, generateClientTypes, generateErrorCodes } from "../scripts/generate-types";

describe("@verbatim/client types", () => {
  it("match the app's current /openapi.json (run `npm run client:generate` after changing the API)", async () => {
    const committed = await readFile(GENERATED_PATH, "utf8");
    expect(
      committed === (await generateClientTypes()),
      "client/src/openapi.ts is stale: run `npm run client:generate`",
    ).toBe(true);
  });

  it("carry the app's error-code table unchanged, and nothing else beside it", async () => {
    const generated = await generateErrorCodes();
    for (const [path, text] of generated) {
      const committed = await readFile(new URL(path, ERROR_CODES_ROOT), "utf8").catch(() => null);
      expect(committed === text, `client/src/${path} is stale: run \`npm run client:generate\``).toBe(true);
    }
    const group = (await readdir(new URL("error-codes/", ERROR_CODES_ROOT))).map((name) => `error-codes/${name}`);
    expect(group.filter((path) => !generated.has(path))).toEqual([]);
  });
});
