import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Levels of lib/, from the bottom. A folder may import itself and the folders listed before it; importing one listed
// after it is an upward import, and fails here. With one folder to a level no two folders can import each other.
// lib/app holds the composition roots (the pipelines handed to the job drivers): it may import everything, and only
// entry points (instrumentation.ts, scripts, app/) import it.
const LIB_LEVELS = [
  // the base: types, settings, logs and metrics, the database
  "formats",
  "generated",
  "server-only-node",
  "env",
  "observability",
  "db",
  "cache",
  // HTTP's base (errors, bodies, endpoint definitions, the outbound guard), sources, child processes and threads
  "http",
  "sources",
  "process",
  // accounts and money
  "usage",
  "billing",
  "auth",
  "oauth",
  // the durable queue, and what runs on it or feeds the transcripts
  "jobs",
  "webhooks",
  "captions",
  "media",
  "asr",
  "podcasts",
  "uploads",
  // transcripts and what is built on them
  "transcripts",
  "publishing",
  "edits",
  "search",
  "imports",
  "follows",
  // surfaces
  "health",
  "mcp",
  "openapi",
  "browser",
  "app",
];

// The upward imports that stay, each with its reason: file → the higher folders it may import.
const UPWARD_IMPORTS = [
  {
    file: "lib/env.ts",
    may: ["captions"],
    why: "settings check YOUTUBE_CLIENTS with the client list's own parser (lib/captions/youtube/clients.ts imports nothing)",
  },
  {
    file: "lib/process/parse-worker.ts",
    may: ["captions", "edits", "podcasts", "publishing"],
    why: "the worker thread's entry hands each job to its domain: a composition root (docs/decisions/0001)",
  },
  {
    file: "lib/http/with-api.ts",
    may: ["auth"],
    why: "the API wrapper authenticates each request and checks the permission table before any domain runs",
  },
  {
    file: "lib/http/endpoint.ts",
    may: ["auth"],
    why: "an endpoint definition names the credential and permission it needs (types only)",
  },
];

const TEST_CODE = { group: ["@/test/**", "**/test/**"], message: "App code may not import test code (test/)." };

/** The no-restricted-imports patterns of a file of `folder`, `depth` folders below lib/<folder>/, allowing `may`. */
function levelPatterns(folder, depth, may = []) {
  const above = LIB_LEVELS.slice(LIB_LEVELS.indexOf(folder) + 1).filter((f) => !may.includes(f));
  const patterns = [TEST_CODE];
  if (above.length > 0)
    patterns.push({
      regex: `^@/lib/(${above.join("|")})(/|$)`,
      message: `An upward import: lib/${folder} sits below it (LIB_LEVELS in eslint.config.mjs). Move the shared piece down, or hand it in from a composition root (lib/app).`,
    });
  // A relative import stays inside its folder; another folder is named by @/lib/…, where the levels see it.
  patterns.push({ regex: `^(\\.\\./){${depth + 1},}`, message: "Import another lib/ folder as @/lib/…" });
  return patterns;
}

const levelRules = LIB_LEVELS.flatMap((folder) => [
  ...[0, 1].map((depth) => ({
    files: depth === 0 ? [`lib/${folder}.ts`, `lib/${folder}/*.{ts,tsx}`] : [`lib/${folder}/*/**/*.{ts,tsx}`],
    ignores: ["**/*.test.ts", "**/*.test.tsx", ...UPWARD_IMPORTS.map((u) => u.file)],
    rules: { "no-restricted-imports": ["error", { patterns: levelPatterns(folder, depth) }] },
  })),
]).concat(
  UPWARD_IMPORTS.map(({ file, may }) => ({
    files: [file],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: levelPatterns(
            file.split("/")[1].replace(/\.ts$/, ""),
            Math.max(0, file.split("/").length - 3),
            may,
          ),
        },
      ],
    },
  })),
);

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
  ...levelRules,
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
