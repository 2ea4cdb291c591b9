import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Integration tests (*.int.test.ts): real PostgreSQL (see test/pg.ts) and PGlite.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    // next-auth imports "next/server" without an extension; inlining lets Vite resolve it.
    server: { deps: { inline: ["next-auth"] } },
    include: ["**/*.int.test.ts"],
    exclude: ["node_modules/**", ".next/**"],
    testTimeout: 60000,
  },
});
