import { enableCompileCache, flushCompileCache } from "node:module";
import path from "node:path";

// Node's compile cache for `next start` (next.config.ts turns it on, instrumentation.ts writes it once the
// start's work is done): V8's code for Next.js's modules and the build's chunks, kept on disk, so that a
// restart skips compiling most of what a start loads. Node checks each entry against its source, and the
// folder is under the build's own cache, so a new build or a new Node does not use stale code.

export function enableServerCompileCache(): void {
  enableCompileCache(path.resolve(".next/cache/node-compile-cache"));
}

/** Writes what has been compiled so far; Node would otherwise write it only at exit, which a killed process skips. */
export function writeServerCompileCache(): void {
  flushCompileCache();
}
