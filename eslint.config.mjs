import { globSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Levels of lib/, from the bottom. A folder may import itself and the folders listed before it; importing one listed
// after it is an upward import, and fails here. With one folder to a level no two folders can import each other.
// lib/app holds the composition roots (the pipelines handed to the job drivers, the parse thread's
// entry): it may import everything, and only entry points (instrumentation.ts, scripts, app/) import it. A lib/ folder
// missing from the list fails too, and lib/ imports neither components/ nor app/. No upward import is excepted.
const LIB_LEVELS = [
  // the base: types, settings (lib/env.ts and lib/env/: a domain's own lists are kept as text and read by the domain),
  // logs and metrics, child processes and threads (the embedded database's among them), the database
  "formats",
  // the team roles' ladder and who may give which (pure)
  "roles",
  "generated",
  "server-only-node",
  "env",
  "observability",
  "process",
  "db",
  "cache",
  // HTTP's base (errors, bodies, endpoint definitions, the outbound guard), sources
  "http",
  // model files pinned by URL, size and SHA-256, fetched through the outbound guard
  "models",
  // text → vector: the embedders, their registry and the choice from settings
  "embeddings",
  "sources",
  // who may act in which account (a person's own or a team's), a membership's role set under the team's rules,
  // and the writer of the team's audit trail: what sign-in, keys and every operation read
  "membership",
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
  // the team feature: teams, members, invitations, transfer, deletion, domains, keys, per-member usage, the trail read
  "teams",
  // SCIM provisioning: the identity provider's members and groups, through the teams' and sign-in's rules
  "scim",
  // transcripts and what is built on them
  "transcripts",
  "publishing",
  "edits",
  "search",
  "imports",
  "follows",
  // saved searches matched against each new transcript (search, follows and webhooks composed)
  "alerts",
  // transcripts out as notes (Markdown with front matter), one or a zip of many, from any selection of a library
  "exports",
  // a list of links as one batch: its items transcribed as links are, its results one zip (exports' streamer)
  "batches",
  // the watch folder: recordings dropped in a folder become transcripts (as uploads), results written beside them
  "watch",
  // surfaces
  "health",
  "mcp",
  "rest",
  "openapi",
  "browser",
  "app",
];

const ROOT = fileURLToPath(new URL(".", import.meta.url));
const TEST_FILES = ["**/*.test.ts", "**/*.test.tsx"];
const TEST_CODE = { group: ["@/test/**", "**/test/**"], message: "App code may not import test code (test/)." };

/** A level's paths: its folder, and a file of the same name (lib/env.ts beside lib/env/). */
const levelPaths = (folder) => [`./lib/${folder}`, `./lib/${folder}.ts`];

// import/no-restricted-paths resolves each import to its file, whatever its form: `import`, `export … from`,
// `import()`, `require()`, through the @ alias or a relative path.
const levelZones = [
  ...LIB_LEVELS.slice(0, -1).map((folder, level) => ({
    target: levelPaths(folder),
    from: LIB_LEVELS.slice(level + 1).flatMap(levelPaths),
    message: `An upward import: lib/${folder} sits below it (LIB_LEVELS in eslint.config.mjs). Move the shared piece down, or hand it in from a composition root (lib/app).`,
  })),
  {
    target: "./lib",
    from: ["./components", "./app"],
    message: "lib/ sits below the React components and the routes: move the shared piece into lib/.",
  },
];

// A relative import stays inside its folder; another folder is named by @/lib/…, where the levels are read.
const relativeImportRules = [0, 1].map((depth) => ({
  files: depth === 0 ? ["lib/*.ts", "lib/*/*.{ts,tsx}"] : ["lib/*/*/**/*.{ts,tsx}"],
  ignores: TEST_FILES,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [TEST_CODE, { regex: `^(\\.\\./){${depth + 1},}`, message: "Import another lib/ folder as @/lib/…" }],
      },
    ],
  },
}));

const levelRules = [
  {
    files: ["lib/**/*.{ts,tsx,mjs}"],
    ignores: TEST_FILES,
    rules: { "import/no-restricted-paths": ["error", { basePath: ROOT, zones: levelZones }] },
  },
  {
    files: ["lib/**/*.{ts,tsx,mjs}"],
    ignores: LIB_LEVELS.flatMap((folder) => [`lib/${folder}.*`, `lib/${folder}/**`]),
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Program",
          message: "This lib/ folder is missing from LIB_LEVELS in eslint.config.mjs: give it its level.",
        },
      ],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    ignores: TEST_FILES,
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          basePath: ROOT,
          zones: [
            {
              target: "./components",
              from: "./lib/app",
              message:
                "lib/app is for entry points (routes, instrumentation.ts, scripts): import the domain's own module.",
            },
          ],
        },
      ],
    },
  },
  ...relativeImportRules,
];

// scim-patch walks a client's PATCH paths, creating each missing step on whatever object the step before named,
// Object.prototype included: only lib/scim/patch.ts, which refuses the names that reach a prototype first, imports it
// (docs/decisions/0051). Placed before the levels' rules, whose own no-restricted-syntax then wins for a lib/ folder
// LIB_LEVELS does not list.
const ONE_DOOR = "scim-patch";
const oneDoorRule = {
  files: ["**/*.{ts,tsx,mjs}"],
  ignores: ["lib/scim/patch.ts"],
  rules: {
    "no-restricted-syntax": [
      "error",
      ...[
        `ImportDeclaration[source.value='${ONE_DOOR}']`,
        `ImportExpression[source.value='${ONE_DOOR}']`,
        `ExportNamedDeclaration[source.value='${ONE_DOOR}']`,
        `ExportAllDeclaration[source.value='${ONE_DOOR}']`,
        `CallExpression[callee.name='require'][arguments.0.value='${ONE_DOOR}']`,
      ].map((selector) => ({
        selector,
        message:
          "scim-patch can walk a client's path onto Object.prototype: apply a PATCH through applyPatch (lib/scim/patch.ts), which refuses those names first.",
      })),
    ],
  },
};

/**
 * eslint-plugin-react's rules and the React Compiler's (eslint-plugin-react-hooks, all but the two classic ones) look
 * for components in every file they are given: the compiler reads each function of it with Babel, most of it in files
 * with no React at all. They run where React can be: .tsx files, app/ and components/, and any other file that
 * imports React. The rules of hooks stay on everywhere.
 */
const CLASSIC_HOOK_RULES = new Set(["react-hooks/rules-of-hooks", "react-hooks/exhaustive-deps"]);
const REACT_RULES = [
  ...new Set(
    nextVitals
      .flatMap((config) => Object.keys(config.rules ?? {}))
      .filter(
        (rule) => rule.startsWith("react/") || (rule.startsWith("react-hooks/") && !CLASSIC_HOOK_RULES.has(rule)),
      ),
  ),
];
const NOT_SCANNED = new Set(["node_modules", ".next", ".git", ".venv", "data", "test-results", "dist", "generated"]);
const IMPORTS_REACT = /\bfrom\s+["']react(-dom)?(\/[^"']*)?["']/;
const filesWithoutReact = globSync("**/*.{ts,mts,cts,js,mjs,cjs}", { exclude: (name) => NOT_SCANNED.has(name) }).filter(
  (file) => !/^(app|components)\//.test(file) && !IMPORTS_REACT.test(readFileSync(file, "utf8")),
);
const reactRulesWhereReactIs = {
  files: filesWithoutReact,
  rules: Object.fromEntries(REACT_RULES.map((rule) => [rule, "off"])),
};

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
    "extension/dist/**",
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
  oneDoorRule,
  ...levelRules,
  {
    // A spec's page waits for hydration after goto and reload (e2e/fixtures.ts), so a click is never lost.
    files: ["e2e/**/*.spec.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@playwright/test",
              importNames: ["test"],
              message: "Take `test` from ./fixtures: its page waits for the app to hydrate.",
            },
          ],
        },
      ],
    },
  },
  {
    // Test helpers named use* (useTestDatabase) and Playwright's fixture callback `use` are not React hooks.
    files: ["test/**/*.ts", "**/*.test.ts", "e2e/fixtures.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  reactRulesWhereReactIs,
]);
