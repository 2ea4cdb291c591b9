import { beforeAll, describe, expect, it } from "vitest";
import { ESLint, type Linter } from "eslint";

// The levels rule and scim-patch's one door of eslint.config.mjs, run by ESLint on small samples as if they were
// files of lib/ or app/ (none is written): each import below is one a rule must refuse, beside one it must let through.

let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({ cwd: process.cwd() });
  // The first lint loads the configuration and its plugins, here rather than in the first test.
  await eslint.lintText("", { filePath: "lib/sample.ts" });
}, 120_000);

async function problems(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId !== "@typescript-eslint/no-unused-vars");
}

const upward = expect.objectContaining({
  ruleId: "import/no-restricted-paths",
  message: expect.stringContaining("An upward import: lib/http sits below it"),
});

describe("the levels of lib/", () => {
  it("lets a folder import the folders below it, statically or with import()", async () => {
    expect(
      await problems(
        "lib/http/sample.ts",
        'import { env } from "@/lib/env";\nexport const settings = () => env;\nexport const load = () => import("@/lib/db/client");\n',
      ),
    ).toEqual([]);
  });

  it("refuses a static upward import", async () => {
    expect(await problems("lib/http/sample.ts", 'export { authenticate } from "@/lib/auth/principal";\n')).toEqual([
      upward,
    ]);
  });

  it("refuses an upward import(), through the alias or a relative path", async () => {
    expect(await problems("lib/http/sample.ts", 'export const load = () => import("@/lib/auth/principal");\n')).toEqual(
      [upward],
    );
    expect(await problems("lib/http/sample.ts", 'export const load = () => import("../auth/principal");\n')).toEqual([
      upward,
    ]);
  });

  it("refuses lib/ importing components/ or app/", async () => {
    const messages = await problems(
      "lib/browser/sample.ts",
      'export { Button } from "@/components/ui/button";\nexport const page = () => import("@/app/page");\n',
    );
    expect(messages).toEqual([
      expect.objectContaining({
        ruleId: "import/no-restricted-paths",
        message: expect.stringContaining("lib/ sits below"),
      }),
      expect.objectContaining({
        ruleId: "import/no-restricted-paths",
        message: expect.stringContaining("lib/ sits below"),
      }),
    ]);
  });

  it("refuses a component importing a composition root (lib/app)", async () => {
    expect(await problems("components/sample.ts", 'export { appPipelines } from "@/lib/app/pipelines";\n')).toEqual([
      expect.objectContaining({
        ruleId: "import/no-restricted-paths",
        message: expect.stringContaining("lib/app is for entry points"),
      }),
    ]);
    expect(await problems("components/sample.ts", 'export { env } from "@/lib/env";\n')).toEqual([]);
  });

  it("refuses a lib/ folder that LIB_LEVELS does not list", async () => {
    expect(await problems("lib/brand-new/sample.ts", "export const one = 1;\n")).toEqual([
      expect.objectContaining({
        ruleId: "no-restricted-syntax",
        message: expect.stringContaining("missing from LIB_LEVELS"),
      }),
    ]);
    expect(await problems("lib/search/sample.ts", "export const one = 1;\n")).toEqual([]);
  });
});

describe("scim-patch's one door", () => {
  it("refuses scim-patch anywhere but lib/scim/patch.ts, in every form of import", async () => {
    const refused = expect.objectContaining({
      ruleId: "no-restricted-syntax",
      message: expect.stringContaining("apply a PATCH through applyPatch"),
    });
    for (const code of [
      'import { scimPatch } from "scim-patch";\nexport const apply = scimPatch;\n',
      'export { scimPatch } from "scim-patch";\n',
      'export const load = () => import("scim-patch");\n',
    ]) {
      expect(await problems("lib/scim/sample.ts", code), code).toEqual([refused]);
      expect(await problems("app/scim/v2/sample.ts", code), code).toEqual([refused]);
    }
    expect(
      await problems("lib/scim/patch.ts", 'import { scimPatch } from "scim-patch";\nexport const apply = scimPatch;\n'),
    ).toEqual([]);
  });
});

describe("React's rules where React can be", () => {
  // A hook that reads a ref while rendering: the React Compiler's refs rule finds it.
  const readsRefInRender =
    'import { useRef } from "react";\nexport function useCount(): number {\n  const ref = useRef(0);\n  return ref.current;\n}\n';
  const refs = expect.objectContaining({ ruleId: "react-hooks/refs" });

  it("are given to app/ and components/, and to a file elsewhere that imports React", async () => {
    expect(await problems("components/sample.ts", readsRefInRender)).toEqual([refs]);
    expect(await problems("app/sample/use-count.ts", readsRefInRender)).toEqual([refs]);
    // lib/browser/use-player.ts is a hook file of lib/ that imports React.
    expect(await problems("lib/browser/use-player.ts", readsRefInRender)).toEqual([refs]);
  });

  it("are not given to a file that does not import React", async () => {
    // lib/env.ts imports no React: the configuration reads each file once, when it loads.
    expect(await problems("lib/env.ts", readsRefInRender)).toEqual([]);
  });
});
