import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig, mergeConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { durationCacheDir, sharedConfig } from "./vitest.shared.ts";

/**
 * The files that take longest, longest first: each starts processes one after another or opens the embedded
 * database again and again, so its size says little of its length. Where vitest has no durations from an earlier run
 * in this folder (a new machine, as CI's), it starts the largest files first, and these started last ran alone at
 * the end of the run for minutes. With durations, vitest's own order (longest first) is kept.
 */
const LONGEST_FILES = [
  "lib/http/roles.int.test.ts",
  "lib/db/data-dir-lock.int.test.ts",
  "cli/src/cli.int.test.ts",
  "lib/asr/openai-compatible.int.test.ts",
  "lib/search/privacy.int.test.ts",
  "lib/transcripts/asr-restart.int.test.ts",
  "lib/imports/imports.int.test.ts",
  "lib/search/ranking.int.test.ts",
  "lib/db/embedded.int.test.ts",
  "lib/media/media.int.test.ts",
  "lib/db/flat-reads-migrations.int.test.ts",
  "lib/jobs/drivers/local.int.test.ts",
  "lib/search/search-scale.int.test.ts",
  "lib/follows/follows.int.test.ts",
  "lib/db/migrate.int.test.ts",
  "lib/media/ytdlp.int.test.ts",
  "lib/search/judged-guard.int.test.ts",
  "lib/imports/import-restart.int.test.ts",
  "scripts/doctor.int.test.ts",
];

class LongestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const name = (spec: TestSpecification) => path.relative(this.ctx.config.root, spec.moduleId);
    const timed = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${name(spec)}`) !== undefined;
    if (sorted.every(timed)) return sorted;
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FILES.indexOf(name(spec));
      return at === -1 ? LONGEST_FILES.length : at;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

// Integration tests (*.int.test.ts): real PostgreSQL (see test/pg.ts; the global setup starts an embedded
// server when none answers at TEST_DATABASE_ADMIN_URL) and PGlite.
export default mergeConfig(
  sharedConfig,
  defineConfig({
    cacheDir: durationCacheDir("integration"),
    test: {
      include: ["**/*.int.test.ts"],
      exclude: ["node_modules/**", ".next/**"],
      // A guard against a hang, not a timing: in CI (three of these files at a time on two cores) a test that is
      // quick alone (15 ffmpeg cuts, each sent to a fake) once took ten times as long.
      testTimeout: 180_000,
      // A beforeAll that creates and migrates a database can take over the default 10 s on a loaded 2-core machine.
      hookTimeout: 180_000,
      // These files mostly wait (on PostgreSQL, ffmpeg, fakes, job runners): with three workers beside the rest of
      // `npm test` two cores were still idle a third of the time, and this suite was the run's longest step. Five
      // keep them busy where vitest's default would run one. Each file has its own database, so files do not meet.
      maxWorkers: Math.max(5, availableParallelism() - 1),
      globalSetup: ["test/integration-setup.ts"],
      sequence: { sequencer: LongestFilesFirst },
      // A worker runs file after file in one module registry (node_modules load once a worker, not once a file: most
      // of this suite's CPU time); test/integration-file-setup.ts gives each file the app's modules and settings anew.
      isolate: false,
      setupFiles: ["test/integration-file-setup.ts"],
      // These files test allowances as an operator who set one: the contract's free 15 minutes. With billing off
      // and no setting there is no limit (lib/billing/billing-off.int.test.ts deletes this to check that).
      // Voice-activity detection is off here: most fixtures stand in for speech with tones or silence (the fake
      // podcast host's 440 Hz tone, which the detector rightly calls no speech). The files that test it turn it
      // on (lib/transcripts/asr-job.int.test.ts).
      // A search's whole deadline is the longest the setting allows: beside the other suites on two cores an
      // ordinary search can take the default's 2 s, and a test of what a search finds is not one of its deadline
      // (lib/search/search-deadline.int.test.ts sets its own). The second stage of search by meaning is off but in its
      // own test (lib/search/second-stage.int.test.ts). A feed's parse has the longest deadline too: beside the other
      // suites a real feed of 730 episodes, parsed in a thread at this step's lower priority, passed the default 20 s
      // (the deadline's own test sets its own).
      env: {
        FREE_ALLOWANCE_SECONDS: "900",
        ASR_VAD: "off",
        SEARCH_TIMEOUT_MS: "60000",
        SEARCH_SECOND_STAGE: "off",
        PODCAST_FEED_PARSE_SECONDS: "300",
      },
    },
  }),
);
