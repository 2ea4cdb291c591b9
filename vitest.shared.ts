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
  },
} satisfies ViteUserConfig;
