// The TypeScript programs the integration files start as processes of their own (the job worker, the runner and
// relay children, the embedded database's server, the doctor), bundled once a run by the global setup
// (test/integration-setup.ts), as lib/process/source-thread.ts bundles thread entries: a process that registers tsx
// resolves and compiles each of several hundred modules through the loader's hooks, about twice the CPU of one that
// loads the bundle. The bundle is the same sources, packages left as imports: each module's `import.meta.url`,
// `dirname` and `filename` are its own file's, as under tsx, so paths read relative to a module are unchanged.
// Where no bundle was made (a file run alone, with no global setup), the process registers tsx as before.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import { bundleEntry } from "@/lib/process/source-thread";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
// Inside the project, so the bundles' imports of packages are found in its node_modules.
const BUNDLES = path.join(ROOT, "node_modules", ".cache", "verbatim-entries");
const BUNDLED = "TEST_ENTRY_BUNDLES";

/** The programs bundled, as paths from the project's folder. */
export const ENTRIES = [
  "scripts/worker.ts",
  "scripts/doctor.ts",
  "test/jobs/runner-child.ts",
  "test/jobs/relay-child.ts",
  "test/fixtures/serve-embedded.ts",
  "test/fixtures/open-embedded-and-exit.ts",
];

/** Each project module's `import.meta` paths written in as its own file's (esbuild leaves them as the bundle's). */
const ownImportMeta: Plugin = {
  name: "own-import-meta",
  setup(build) {
    build.onLoad({ filter: /\.(ts|tsx|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, "utf8");
      const loader = args.path.endsWith(".tsx") ? "tsx" : /\.m?ts$/.test(args.path) ? "ts" : "js";
      if (!source.includes("import.meta")) return { contents: source, loader };
      const contents = source
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path));
      return { contents, loader };
    });
  },
};

/** `next/server` and its kin: files of a package without an exports map, which Node's ESM resolver needs named whole. */
const nextSubpaths: Plugin = {
  name: "next-subpaths",
  setup(build) {
    build.onResolve({ filter: /^next\/[\w-]+$/ }, (args) => ({ path: `${args.path}.js`, external: true }));
  },
};

/** Bundles every entry; the processes started after this (the run's workers, and their children) find them. */
export async function prepareEntryBundles(): Promise<void> {
  const files = await Promise.all(
    ENTRIES.map((entry) => bundleEntry(path.join(ROOT, entry), BUNDLES, [nextSubpaths, ownImportMeta])),
  );
  process.env[BUNDLED] = JSON.stringify(Object.fromEntries(ENTRIES.map((entry, i) => [entry, files[i]])));
}

/**
 * Node's arguments to run `entry` (a project file, absolute or from the project's folder): its bundle when this run
 * made one, else the source under tsx (`tsxImport`: how to name tsx, by default the package from the working folder).
 */
export function entryArgs(entry: string, { tsxImport = "tsx" }: { tsxImport?: string } = {}): string[] {
  const relative = path.relative(ROOT, path.resolve(ROOT, entry)).split(path.sep).join("/");
  const bundles = JSON.parse(process.env[BUNDLED] ?? "{}") as Record<string, string>;
  const bundled = bundles[relative];
  return bundled && existsSync(bundled) ? [bundled] : ["--import", tsxImport, path.resolve(ROOT, entry)];
}

/**
 * Node's arguments for a child that opens the embedded database and lives only seconds: V8 runs PGlite's WebAssembly
 * as its baseline compiler made it. By default it also compiles the module again, optimised, on other threads, which
 * such a child pays for in full and hardly uses.
 */
export const SHORT_LIVED_WASM = ["--liftoff-only"];
