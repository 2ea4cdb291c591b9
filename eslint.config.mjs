import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    "node_modules/**",
    "lib/generated/**",
    "next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
    "data/**",
    ".venv/**",
    "cli/dist/**",
    "client/dist/**",
  ]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    // Test helpers, fixtures and fakes live under test/ and never reach app code.
    files: [
      "app/**/*.{ts,tsx}",
      "lib/**/*.{ts,tsx}",
      "components/**/*.{ts,tsx}",
      "cli/src/**/*.ts",
      "client/src/**/*.ts",
      "proxy.ts",
      "instrumentation.ts",
    ],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/test/**", "**/test/**"], message: "App code may not import test code (test/)." }] },
      ],
    },
  },
  {
    // lib/jobs sits below every domain: the pipelines are handed to the drivers by a composition root
    // (lib/app/pipelines.ts), so a domain import here would be an upward one.
    files: ["lib/jobs/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/test/**", "**/test/**"], message: "App code may not import test code (test/)." },
            {
              regex: "^@/lib/(?!(jobs|db|generated|observability)/|env$|http/error-codes$)",
              message: "lib/jobs imports no domain: hand it what it needs from a composition root (lib/app/).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/**/*.{ts,tsx}"],
    settings: { "import/ignore": ["node_modules"] },
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Test helpers named use* (useTestDatabase) are not React hooks.
    files: ["test/**/*.ts", "**/*.test.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
]);
