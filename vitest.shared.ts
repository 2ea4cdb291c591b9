import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ViteUserConfig } from "vitest/config";

// What every vitest config of the project shares (unit, integration, server, faults): the `@` alias, the
// server-only stub, and next-auth inlined (it imports "next/server" without an extension; inlining lets Vite
// resolve it). Each config merges its own test settings onto this with mergeConfig.
export const sharedConfig = {
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      "server-only": fileURLToPath(new URL("./lib/server-only-node.ts", import.meta.url)),
    },
  },
  test: {
    server: { deps: { inline: ["next-auth"] } },
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content), so the suites
    // of one `npm test` and every later run reuse each other's transforms instead of each making its own.
    experimental: { fsModuleCache: true },
  },
} satisfies ViteUserConfig;

/**
 * Where vitest keeps a suite's files' last durations, by which it starts the longest first: outside node_modules
 * (which `npm ci` empties) and outside the checkout (CI's is a clean clone), one folder per suite so that suites run
 * side by side do not overwrite each other's. Without it (a new machine) vitest starts the largest files first.
 */
export const durationCacheDir = (suite: string) =>
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "verbatim", "vitest", suite);
