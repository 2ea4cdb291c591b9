import { availableParallelism } from "node:os";
import { defineConfig, mergeConfig } from "vitest/config";
import { durationCacheDir, sharedConfig } from "./vitest.shared.ts";

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
      // These files test allowances as an operator who set one: the contract's free 15 minutes. With billing off
      // and no setting there is no limit (lib/billing/billing-off.int.test.ts deletes this to check that).
      // Voice-activity detection is off here: most fixtures stand in for speech with tones or silence (the fake
      // podcast host's 440 Hz tone, which the detector rightly calls no speech). The files that test it turn it
      // on (lib/transcripts/asr-job.int.test.ts).
      // A search's whole deadline is the longest the setting allows: beside the other suites on two cores an
      // ordinary search can take the default's 2 s, and a test of what a search finds is not one of its deadline
      // (lib/search/search-deadline.int.test.ts sets its own).
      env: { FREE_ALLOWANCE_SECONDS: "900", ASR_VAD: "off", SEARCH_TIMEOUT_MS: "60000" },
    },
  }),
);
