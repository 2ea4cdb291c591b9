// `npm run bench`: every figure we keep an eye on. Needs `npm run build` first (it starts the app).
// `npm run bench -- formats dedup` runs only those suites. `npm run bench -- data-scale` seeds and
// keeps two databases of 10k and 1M rows (DATA_SCALE=10k,100k for a smaller pair); it runs only when named, as does
// `search-relevance` (its own database of 100k rows, RELEVANCE_DB).
import { benchServer, benchStartup } from "./bench/server";
import { benchFormats } from "./bench/formats";
import { benchDedup } from "./bench/dedup";
import { benchTranscripts } from "./bench/transcripts";
import { benchJobs } from "./bench/jobs";
import { benchMedia } from "./bench/media";
import { benchAsr } from "./bench/asr";
import { benchAsrLocal } from "./bench/asr-local";
import { benchAsrVad } from "./bench/asr-vad";
import { benchPlans } from "./bench/plans";
import { benchYoutube } from "./bench/youtube";
import { benchRateLimits } from "./bench/rate-limits";
import { benchOutbound } from "./bench/outbound";
import { benchPublishing } from "./bench/publishing";
import { benchImports } from "./bench/imports";
import { benchMcp } from "./bench/mcp";
import { benchOauth } from "./bench/oauth";
import { benchCli } from "./bench/cli";
import { benchObservability } from "./bench/observability";
import { benchScale } from "./bench/scale";
import { benchFaults } from "./bench/faults";
import { benchPages } from "./bench/pages";
import { benchFeeds } from "./bench/feeds";
import { benchFollows } from "./bench/follows";
import { benchWebhookFairness, benchWebhooks } from "./bench/webhooks";
import { benchSearch } from "./bench/search";
import { benchSearchWorst } from "./bench/search-worst";
import { benchMeaningReady } from "./bench/meaning-ready";
import { benchEdits } from "./bench/edits";
import { benchExports } from "./bench/exports";
import { benchDataScale } from "./bench/data-scale";
import { benchSearchRelevance } from "./bench/search-relevance";
import { benchSearchJudged } from "./bench/search-judged";
import { benchJudgedAlerts } from "./bench/judged-alerts";
import { REPORT_CORPUS } from "../test/fixtures/captions/judged-corpora";
import { benchSearchMeaningCost } from "./bench/search-meaning-cost";
import { benchEmbedders } from "./bench/embedders";
import { benchSearchVector } from "./bench/search-vector";
import { benchSearchVectorLists } from "./bench/search-vector-lists";
import { benchEventLoop } from "./bench/event-loop";
import { benchAttacks } from "./bench/attacks";
import { benchHeavySaves } from "./bench/heavy-saves";
import { benchAlerts } from "./bench/alerts";
import { benchBatch } from "./bench/batch";
import { benchWatch } from "./bench/watch";
import { benchSecondStageCost } from "./bench/second-stage-cost";
import { benchSecondStageHealth } from "./bench/second-stage-health";

const suites: Record<string, () => Promise<Record<string, number>>> = {
  server: benchServer,
  startup: benchStartup,
  transcripts: benchTranscripts,
  formats: benchFormats,
  dedup: benchDedup,
  jobs: benchJobs,
  media: benchMedia,
  asr: benchAsr,
  "asr-local": benchAsrLocal,
  "asr-vad": benchAsrVad,
  plans: benchPlans,
  youtube: benchYoutube,
  ratelimits: benchRateLimits,
  outbound: benchOutbound,
  publishing: benchPublishing,
  imports: benchImports,
  mcp: benchMcp,
  oauth: benchOauth,
  cli: benchCli,
  observability: benchObservability,
  scale: benchScale,
  faults: benchFaults,
  pages: benchPages,
  feeds: benchFeeds,
  follows: benchFollows,
  webhooks: benchWebhooks,
  "webhook-fairness": benchWebhookFairness,
  search: benchSearch,
  "search-worst": benchSearchWorst,
  edits: benchEdits,
  exports: benchExports,
  // The probe's two attacks (one user's heavy saves; six anonymous readers of a long transcript's files):
  // /health's worst wait during each, on PostgreSQL and on the embedded default.
  attacks: benchAttacks,
  // A heavy save's time and another user's worst read during it, shape by shape, on both databases (no build
  // needed: the app's save is called in a process of its own). Only when named.
  "heavy-saves": benchHeavySaves,
  // The longest event-loop hold per endpoint at its body bound and per parser at its document bound.
  "event-loop": () => benchEventLoop(),
  // Seeds (once, kept) databases of 10k and 1M rows: minutes. Only when named.
  "data-scale": benchDataScale,
  // Recall@10 and MRR@10 of the judged set (meaning queries and keyword controls on the real caption tracks, per
  // search mode) and the frequent-word judgement; then recall@10 of 50 queries against the exhaustive ranking and
  // the places of planted best answers, on data-scale's corpus of 100k passages (seeded once, kept: minutes).
  // Only when named; `search-judged` is the first part alone.
  "search-relevance": async () => ({ ...(await benchSearchJudged()), ...(await benchSearchRelevance()) }),
  "search-judged": benchSearchJudged,
  // The same on the second judged corpus, the one search is reported on rather than tuned on. Only when named.
  "search-judged-report": () => benchSearchJudged(REPORT_CORPUS),
  // Alerts by meaning on each judged corpus: recall, precision and the other transcripts fired on, per closeness.
  // Only when named.
  "alerts-judged": () => benchJudgedAlerts(),
  "alerts-judged-report": () => benchJudgedAlerts(REPORT_CORPUS),
  // p50/p95 of keyword, hybrid and meaning search on the search bench's corpus, every passage embedded. Only when named.
  "search-meaning-cost": benchSearchMeaningCost,
  // Ingest time per passage, bytes per passage and resident memory of the default and a local sentence model on the
  // judged corpus. Only when named.
  embedders: benchEmbedders,
  // Meaning through pgvector's HNSW index against the bounded candidates, on PGlite: p50 ratios, recall@10, bytes
  // per passage of the vectors and the index.
  "search-vector": benchSearchVector,
  // Meaning past the exact bound without pgvector, on PostgreSQL at about 100,000 passages: the exact compare against
  // the lists of vectors and the bounded candidates (p50/p95, heap, recall@10 against exact, the lists' build time).
  // Only when named.
  "search-vector-lists": benchSearchVectorLists,
  // Matching one new transcript with 10, 10k and 1M alerts stored (PostgreSQL; seeds 1M rows: minutes), and ready →
  // webhook, e-mail and feed over 50 transcripts on the embedded default. Only when named.
  alerts: benchAlerts,
  // 1,000 links through the fakes as one batch (950 from captions, 50 through speech recognition): time to the end,
  // and another account's single link's wait during it against the idle server (goal: at most 1.5 times).
  batch: benchBatch,
  // Recordings dropped in the watch folder: one alone, then 100 at once, each from settling to its results beside it.
  // Only when named.
  watch: benchWatch,
  // Search by meaning's second stage on the judged set: its cost a passage and an hour of speech, the event loop
  // meanwhile, a query's p95 re-ranked against keywords, resident memory loaded and given back. Only when named.
  "second-stage": benchSecondStageCost,
  // The same upgrade in a running server on a 10,000-passage library: /health and a reader's searches meanwhile.
  "second-stage-health": benchSecondStageHealth,
  // A fresh install (the built app, a new data folder, the embedded database): from its first transcript to its first
  // answer by meaning. Only when named: it needs `npm run build`'s models.
  "meaning-ready": benchMeaningReady,
};
// The server suite has the start-up figures too: `startup` is them alone.
const onlyWhenNamed = new Set([
  "data-scale",
  "search-relevance",
  "search-judged",
  "search-judged-report",
  "alerts-judged",
  "alerts-judged-report",
  "search-meaning-cost",
  "embedders",
  "search-vector",
  "search-vector-lists",
  "startup",
  "heavy-saves",
  "alerts",
  "exports",
  "second-stage",
  "second-stage-health",
  "meaning-ready",
  "watch",
]);

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(suites)) {
  if (only.length > 0 ? !only.includes(name) : onlyWhenNamed.has(name)) continue;
  console.log(`\n## ${name}`);
  const figures = await run();
  for (const [label, value] of Object.entries(figures)) {
    console.log(`${label.padEnd(52)} ${Number.isInteger(value) ? value : value.toFixed(value < 10 ? 3 : 1)}`);
  }
}
