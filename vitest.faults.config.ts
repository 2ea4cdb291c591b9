import { defineConfig, mergeConfig } from "vitest/config";
import { durationCacheDir, sharedConfig } from "./vitest.shared.ts";

// The fault suite (`npm run test:faults`): test/faults/*.test.ts inject failures (a killed app, a
// restarted PostgreSQL, a failing recogniser or platform, a full disk) and scale the app out. Some start
// the built app (`npm run build` first). One file at a time: they start processes and load the machine.
export default mergeConfig(
  sharedConfig,
  defineConfig({
    cacheDir: durationCacheDir("faults"),
    test: {
      include: ["test/faults/**/*.test.ts"],
      globalSetup: ["test/faults/global-setup.ts"],
      fileParallelism: false,
      // A guard against a hang: beside the other suites in CI, killing the app during 100 jobs and checking every
      // one once it is back took over 240 s.
      testTimeout: 480_000,
      hookTimeout: 120_000,
    },
  }),
);
