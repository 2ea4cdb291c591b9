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
      testTimeout: 240_000,
      hookTimeout: 120_000,
    },
  }),
);
