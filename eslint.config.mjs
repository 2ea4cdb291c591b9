import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", "node_modules/**", "lib/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "data/**", ".venv/**", "cli/dist/**", "client/dist/**"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // Test helpers named use* (useTestDatabase) are not React hooks.
    files: ["test/**/*.ts", "**/*.test.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
]);
