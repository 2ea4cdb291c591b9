import { defineConfig, mergeConfig } from "vitest/config";
import { durationCacheDir, sharedConfig } from "./vitest.shared.ts";

// The server suite (npm test's "server" step): test/server/*.test.ts check over HTTP what the built app
// (`next start` of `.next`: build first) answers, the checks that need no browser: status codes, headers,
// request ids, rate limits, MCP, feeds, the OpenAPI fuzzer. test/server/global-setup.ts starts the apps and
// the fakes once for the run. One file at a time: the fuzzer alone keeps an app busy, and on two cores every
// request competes with the apps for the CPU.
export default mergeConfig(
  sharedConfig,
  defineConfig({
    cacheDir: durationCacheDir("server"),
    test: {
      include: ["test/server/**/*.test.ts"],
      globalSetup: ["test/server/global-setup.ts"],
      fileParallelism: false,
      // Guards against a hang, not timings: the tests that need longer say so.
      testTimeout: 120_000,
      hookTimeout: 120_000,
    },
  }),
);
