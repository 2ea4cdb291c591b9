// `npm run eval`: search relevance judged against people's marks, beside the benchmarks rather than in the test
// suite (docs/decisions/0053), on two judged corpora: the judged set search is tuned on ("tune",
// test/fixtures/captions/judged-search.ts) and a second of other speech it is reported on ("report",
// judged-second.ts). Each through every candidate embedder and the app's own search on PostgreSQL and on the
// embedded PGlite (`npm run bench -- search-judged`, `search-judged-report`), its figures printed, then each floor
// beside its figure; exits 1 when one is under its floor. `npm run eval -- report` (or `tune`; EVAL_CORPUS likewise)
// runs one. Minutes: it distils the default's 50,000 words into DATA_DIR/models on its first run (kept for the next).
import { judgedCorpora } from "../test/fixtures/captions/judged-corpora";
import { benchSearchJudged } from "./bench/search-judged";
import { checkFloors } from "./eval/floors";

const started = performance.now();
const corpora = judgedCorpora(process.argv[2] ?? process.env.EVAL_CORPUS);
// Each corpus in a process of its own: the app's settings and database client are made once a process, for the
// first corpus's database.
if (corpora.length > 1) {
  const { spawnSync } = await import("node:child_process");
  const failed = corpora.filter(
    (corpus) =>
      spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, corpus.name], { stdio: "inherit" }).status !==
      0,
  );
  console.log(
    `\n${corpora.length - failed.length} of ${corpora.length} corpora held their floors (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  process.exit(failed.length > 0 ? 1 : 0);
}
let held = 0;
let under = 0;
for (const corpus of corpora) {
  const figures = await benchSearchJudged(corpus);
  console.log(`\n## ${corpus.title}`);
  for (const [label, value] of Object.entries(figures))
    console.log(`${label.padEnd(90)} ${Number.isInteger(value) ? value : value.toFixed(3)}`);

  const checked = checkFloors(figures, undefined, corpus.name);
  console.log(`\n## floors on ${corpus.title} (docs/decisions/0053)\n\n| figure | floor | now | |\n|---|---|---|---|`);
  for (const c of checked) {
    const verdict = c.recorded
      ? `recorded (tune's floor${c.held ? ", reached" : ", not reached"})`
      : c.held
        ? "held"
        : "UNDER";
    console.log(`| ${c.figure} | ${c.floor.toFixed(2)} | ${c.value?.toFixed(3) ?? "missing"} | ${verdict} |`);
  }
  const floors = checked.filter((c) => !c.recorded);
  held += floors.filter((c) => c.held).length;
  under += floors.filter((c) => !c.held).length;
}
console.log(
  `\n${held} of ${held + under} floors held on ${corpora.map((c) => c.name).join(" and ")} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
process.exitCode = under > 0 ? 1 : 0;
