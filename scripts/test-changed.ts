// `npm run test:changed [ref]`: the quick loop for a change. Runs only the tests related to the files changed
// since `ref` (default main; committed, staged, unstaged and untracked alike):
//
//   unit         vitest --changed <ref>: the unit files whose imports reach a changed file (module graph)
//   integration  the *.int.test.ts files that changed, sit in a changed file's folder, or import a changed file
//                themselves. Not vitest's module graph: nearly every integration file reaches the app's routes,
//                so a change to any module there selects most of the suite. `--all-related` uses the graph.
//   e2e          playwright test --only-changed=<ref>: the specs whose imports changed; only with a build
//                (`npm run build`), else skipped
//
// A change the selection cannot follow (a page's markup reached by e2e only over HTTP, a SQL file, a fixture read
// by path) selects nothing there: `npm test` remains the whole check before a merge.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const allRelated = args.includes("--all-related");
const ref = args.find((a) => !a.startsWith("--")) ?? process.env.TEST_CHANGED_BASE ?? "main";

function run(name: string, args: string[]): { name: string; ok: boolean; seconds: number } {
  console.log(`\n==> ${name}: npx ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync("npx", ["--no-install", ...args], { stdio: "inherit" });
  return { name, ok: result.status === 0, seconds: (Date.now() - started) / 1000 };
}

const known = spawnSync("git", ["rev-parse", "--verify", "--quiet", ref], { stdio: "ignore" });
if (known.status !== 0) {
  console.error(
    `No git revision "${ref}" here: name the base to compare with, e.g. npm run test:changed -- origin/main`,
  );
  process.exit(2);
}

const git = (...argv: string[]) => execFileSync("git", argv, { encoding: "utf8" }).split("\n").filter(Boolean);
const changed = [...git("diff", "--name-only", ref), ...git("ls-files", "--others", "--exclude-standard")].filter(
  (file) => existsSync(file),
);
/** A module's path without its extension, as imports name it. */
const stem = (file: string) => file.replace(/\.(tsx?|mjs|cjs|js)$/, "");
const changedStems = new Set(changed.map(stem));
const changedDirs = new Set(changed.map((file) => path.dirname(file)));

/** The modules a file imports (static and dynamic), as repository paths without extension. */
function imports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const [, a, b] of source.matchAll(/from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
    const specifier = a ?? b!;
    if (specifier.startsWith("@/")) found.push(stem(specifier.slice(2)));
    else if (specifier.startsWith(".")) found.push(stem(path.join(path.dirname(file), specifier)));
  }
  return found;
}

const integrationFiles = git("ls-files", "--cached", "--others", "--exclude-standard", "*.int.test.ts").filter((file) =>
  existsSync(file),
);
const relatedIntegration = integrationFiles.filter(
  (file) =>
    changedStems.has(stem(file)) ||
    changedDirs.has(path.dirname(file)) ||
    imports(file).some((module) => changedStems.has(module) || changedStems.has(`${module}/index`)),
);

// vitest exits 1 when no test file matches, unless told that is fine.
const results = [run("unit", ["vitest", "run", "--changed", ref, "--passWithNoTests"])];
const integration = ["vitest", "run", "--config", "vitest.integration.config.ts"];
if (allRelated) results.push(run("integration", [...integration, "--changed", ref, "--passWithNoTests"]));
else if (relatedIntegration.length > 0) results.push(run("integration", [...integration, ...relatedIntegration]));
else console.log("\n==> integration: no integration file is related to the change");
if (existsSync(".next/BUILD_ID")) {
  // Playwright runs against the build as it is: rebuild first when the change is in what the build contains.
  results.push(run("e2e", ["playwright", "test", `--only-changed=${ref}`, "--pass-with-no-tests"]));
} else {
  console.log("\n==> e2e: skipped, no build here (`npm run build` first to include the specs related to the change)");
}

console.log(`\ntest:changed (since ${ref}):`);
for (const r of results) console.log(`  ${r.name.padEnd(12)} ${r.ok ? "passed" : "FAILED"}  ${r.seconds.toFixed(0)} s`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
