import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Unit tests: beside the code, no database. Integration tests (*.int.test.ts) have their own config.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    // next-auth imports "next/server" without an extension; inlining lets Vite resolve it.
    server: { deps: { inline: ["next-auth"] } },
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["**/*.int.test.ts", "node_modules/**", ".next/**", "e2e/**", "test/faults/**"],
  },
});
