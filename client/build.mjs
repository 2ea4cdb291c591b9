// Builds the package: dist/index.mjs (esbuild; its dependencies stay imports) and dist/index.d.ts (tsc).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export async function buildClient() {
  await build({
    entryPoints: [here("./src/index.ts")],
    outfile: here("./dist/index.mjs"),
    bundle: true,
    packages: "external",
    platform: "neutral",
    target: "es2022",
    format: "esm",
    logLevel: "warning",
  });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", here("./tsconfig.build.json")], { stdio: "inherit" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildClient();
