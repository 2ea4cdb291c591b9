// `npm run test:changed [ref]`: the quick loop for a change. Runs only the tests related to the files changed
// since `ref` (default main; committed, staged, unstaged and untracked alike), as each runner finds them from its
// module graph:
//
//   unit         vitest --changed <ref>                                   the test files that import a changed file
//   integration  vitest --config vitest.integration.config.ts --changed   the same among *.int.test.ts
//   e2e          playwright test --only-changed=<ref>                     specs whose imports changed; only with a
//                                                                         build (`npm run build`), else skipped
//
// A change the graphs cannot follow (a page's markup reached by e2e only over HTTP, a SQL file, a fixture read
// by path) selects nothing there: `npm test` remains the whole check before a merge.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const ref = process.argv[2] ?? process.env.TEST_CHANGED_BASE ?? "main";

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

// vitest exits 1 when no test file matches, unless told that is fine.
const results = [
  run("unit", ["vitest", "run", "--changed", ref, "--passWithNoTests"]),
  run("integration", [
    "vitest",
    "run",
    "--config",
    "vitest.integration.config.ts",
    "--changed",
    ref,
    "--passWithNoTests",
  ]),
];
if (existsSync(".next/BUILD_ID")) {
  // Playwright runs against the build as it is: rebuild first when the change is in what the build contains.
  results.push(run("e2e", ["playwright", "test", `--only-changed=${ref}`, "--pass-with-no-tests"]));
} else {
  console.log("\n==> e2e: skipped, no build here (`npm run build` first to include the specs related to the change)");
}

console.log(`\ntest:changed (since ${ref}):`);
for (const r of results) console.log(`  ${r.name.padEnd(12)} ${r.ok ? "passed" : "FAILED"}  ${r.seconds.toFixed(0)} s`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
