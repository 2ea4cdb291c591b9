// Runs after `npm run build` (postbuild): bundles the embedded database's thread (lib/db/embedded-worker.ts)
// into one file that `npm start` starts before Next.js loads (scripts/embedded-early.mjs). Packages stay
// imports from node_modules, as in Next.js's own bundle of it (next.config.ts's serverExternalPackages), so
// the file must sit in the project (its node_modules are found from there).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { EARLY_WORKER_FILE } from "./embedded-early.mjs";

export async function bundleEmbeddedWorker(outfile: string): Promise<void> {
  await build({
    entryPoints: [path.resolve("lib/db/embedded-worker.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    // tsconfig.json's paths: `@/…`, and `server-only` as the empty module it is outside Next.js.
    tsconfig: path.resolve("tsconfig.json"),
    logLevel: "warning",
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = performance.now();
  await bundleEmbeddedWorker(EARLY_WORKER_FILE);
  console.log(
    `Embedded database thread: ${path.resolve(EARLY_WORKER_FILE)} (${Math.round(performance.now() - started)} ms)`,
  );
}
