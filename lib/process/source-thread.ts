import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import type { Plugin } from "esbuild";

// A thread's TypeScript entry, outside the Next.js build (tests, and tsx scripts such as the job worker); the built
// app never comes here, since Turbopack bundles each entry as a worker chunk of its own. The entry is bundled once a
// process with esbuild, which reads TypeScript and the tsconfig's paths as tsx does, into a file the threads load
// as it is: a thread that registered tsx and compiled the entry's sources itself cost several times the CPU of one
// that loads a bundle, and a process may start hundreds of threads (a parse each).

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
// Inside the project, so the bundle's imports of packages (left as imports) are found in its node_modules.
const BUNDLES = path.join(PROJECT, "node_modules", ".cache", "verbatim-threads");

const bundles = new Map<string, Promise<URL | null>>();

async function bundle(entry: string): Promise<URL> {
  return pathToFileURL(await bundleEntry(entry, BUNDLES));
}

/**
 * Bundles the TypeScript module `entry` (packages left as imports) into `folder`, inside the project so that those
 * imports are found in its node_modules. The file is named by its content: processes bundling the same sources share
 * it, and a changed source gets a new one. Returns its path.
 */
export async function bundleEntry(entry: string, folder: string, plugins: Plugin[] = []): Promise<string> {
  // esbuild is a development dependency, like tsx, which this path needs anyway; the bundler must not follow it.
  const { build } = await import(/* webpackIgnore: true */ "esbuild");
  const built = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    tsconfig: path.join(PROJECT, "tsconfig.json"),
    plugins,
    logLevel: "silent",
  });
  const code = built.outputFiles[0]!.contents;
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
  const file = path.join(folder, `${path.basename(entry, ".ts")}-${hash}.mjs`);
  if (!existsSync(file)) {
    await mkdir(folder, { recursive: true });
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(partial, code);
    await rename(partial, file);
  }
  return file;
}

/**
 * The thread's entry loaded by tsx in the thread itself: where no bundle can be made (no esbuild, or a project
 * folder this process may not write to).
 */
function tsxThread(entry: URL, options: WorkerOptions): Worker {
  return new Worker(
    `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
    { ...options, eval: true },
  );
}

/** A thread on `entry` (a TypeScript module's file URL), from its bundle. */
export async function sourceThread(entry: URL, options: WorkerOptions): Promise<Worker> {
  const file = fileURLToPath(entry);
  let bundled = bundles.get(file);
  if (!bundled) {
    bundled = bundle(file).catch(() => null);
    bundles.set(file, bundled);
  }
  const url = await bundled;
  return url ? new Worker(url, options) : tsxThread(entry, options);
}
