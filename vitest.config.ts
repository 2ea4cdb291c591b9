import { availableParallelism } from "node:os";
import { defineConfig, mergeConfig } from "vitest/config";
import { durationCacheDir, sharedConfig } from "./vitest.shared.ts";

// Unit tests: beside the code, no database. Integration tests (*.int.test.ts) have their own config.
export default mergeConfig(
  sharedConfig,
  defineConfig({
    cacheDir: durationCacheDir("unit"),
    test: {
      include: ["**/*.test.ts", "**/*.test.tsx"],
      exclude: ["**/*.int.test.ts", "node_modules/**", ".next/**", "e2e/**", "test/faults/**", "test/server/**"],
      // npm test runs this suite beside the build, the e2e shards and the integration suite on two cores: a test
      // that loads the app's route modules or builds a 17 MB feed can take well over vitest's 5 s there. These are
      // guards against a hang, not timings.
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // vitest's default (one worker fewer than the cores) is a single worker on two cores, where a second one
      // still finds idle time while the first loads modules, and this suite finishes sooner on a 2-core machine.
      maxWorkers: Math.max(2, availableParallelism() - 1),
    },
  }),
);
