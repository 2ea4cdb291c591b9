// Builds the package: dist/index.mjs and dist/index.cjs (esbuild; its dependencies stay imports or requires),
// dist/**/*.d.ts (TypeScript's native compiler, NodeNext: relative imports keep their .js extensions) and a .d.cts
// copy of each for require (its imports renamed to .cjs), so the package type-checks under nodenext, node16 and
// bundler, from ESM and CJS.
import { execFileSync } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export async function buildClient() {
  await rm(here("./dist"), { recursive: true, force: true });
  for (const format of ["esm", "cjs"]) {
    await build({
      entryPoints: [here("./src/index.ts")],
      outfile: here(`./dist/index.${format === "esm" ? "mjs" : "cjs"}`),
      bundle: true,
      packages: "external",
      platform: "neutral",
      target: "es2022",
      format,
      logLevel: "warning",
    });
  }
  // The native compiler (TypeScript 7, the typecheck step's): a tenth of the JavaScript one's CPU for the same
  // declarations, which client/package.int.test.ts type-checks under TypeScript 5 and 7 alike.
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript-go/package.json")), "bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", here("./tsconfig.build.json")], { stdio: "inherit" });
  for (const file of await readdir(here("./dist"), { recursive: true })) {
    if (!file.endsWith(".d.ts")) continue;
    const text = await readFile(here(`./dist/${file}`), "utf8");
    const cts = text.replace(/(from\s+["']\.\/[^"']+)\.js(["'])/g, "$1.cjs$2");
    await writeFile(here(`./dist/${file.replace(/\.d\.ts$/, ".d.cts")}`), cts);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildClient();
