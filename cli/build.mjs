// Bundles the CLI into one file, dist/verbatim.mjs: its libraries inlined, nothing of the app's at run time.
import { chmod } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const outfile = fileURLToPath(new URL("./dist/verbatim.mjs", import.meta.url));

export async function buildCli() {
  await build({
    entryPoints: [fileURLToPath(new URL("./src/main.ts", import.meta.url))],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
    // CommonJS libraries (cli-progress) call require() for Node's own modules, which ESM output lacks.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  await chmod(outfile, 0o755);
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
