// `npm run eval`: search relevance judged against people's marks, beside the benchmarks rather than in the test
// suite (docs/decisions/0053). The judged set (test/fixtures/captions/judged-search.ts) through every candidate
// embedder and the app's own search on PostgreSQL and on the embedded PGlite (`npm run bench -- search-judged`),
// its figures printed, then each floor beside its figure; exits 1 when one falls under its floor. Minutes: it
// distils the default's 50,000 words into DATA_DIR/models on its first run (kept for the next).
import { benchSearchJudged } from "./bench/search-judged";
import { checkFloors } from "./eval/floors";

const started = performance.now();
const figures = await benchSearchJudged();
console.log("\n## the judged set");
for (const [label, value] of Object.entries(figures))
  console.log(`${label.padEnd(90)} ${Number.isInteger(value) ? value : value.toFixed(3)}`);

const checked = checkFloors(figures);
console.log("\n## floors (docs/decisions/0053)\n\n| figure | floor | now | |\n|---|---|---|---|");
for (const c of checked)
  console.log(
    `| ${c.figure} | ${c.floor.toFixed(2)} | ${c.value?.toFixed(3) ?? "missing"} | ${c.held ? "held" : "UNDER"} |`,
  );
const under = checked.filter((c) => !c.held);
console.log(
  `\n${checked.length - under.length} of ${checked.length} floors held (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
process.exitCode = under.length > 0 ? 1 : 0;
