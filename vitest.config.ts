import { globSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig, mergeConfig } from "vitest/config";
import { durationCacheDir, sharedConfig } from "./vitest.shared.ts";

// Unit tests: beside the code, no database. Integration tests (*.int.test.ts) have their own config.

const include = ["**/*.test.ts", "**/*.test.tsx"];
const exclude = ["**/*.int.test.ts", "node_modules/**", ".next/**", "e2e/**", "test/faults/**", "test/server/**"];

/**
 * A file that sets the environment or mocks modules changes what the modules it imports read once, when they load:
 * it runs in a module registry of its own. The others share their worker's registry (vitest's `isolate: false`), so
 * the app's modules load once a worker instead of once a file: half the suite's CPU time.
 */
const CHANGES_WHAT_MODULES_READ =
  /process\.env(\.[A-Z_]+|\[[^\]]+\])\s*=[^=]|delete process\.env|Object\.assign\(process\.env|vi\.(mock|doMock|stubEnv|resetModules|stubGlobal)\b/;
const excluded = (file: string) => exclude.some((pattern) => path.matchesGlob(file, pattern));
const isolated = globSync(include, { exclude: (dir) => dir === "node_modules" || dir === ".next" }).filter(
  (file) => !excluded(file) && CHANGES_WHAT_MODULES_READ.test(readFileSync(file, "utf8")),
);

export default mergeConfig(
  sharedConfig,
  defineConfig({
    cacheDir: durationCacheDir("unit"),
    test: {
      // npm test runs this suite beside the build, the e2e shards and the integration suite on two cores: a test
      // that loads the app's route modules or builds a 17 MB feed can take well over vitest's 5 s there. These are
      // guards against a hang, not timings.
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // vitest's default (one worker fewer than the cores) is a single worker on two cores, where a second one
      // still finds idle time while the first loads modules, and this suite finishes sooner on a 2-core machine.
      maxWorkers: Math.max(2, availableParallelism() - 1),
      projects: [
        { extends: true, test: { name: "isolated", include: isolated, isolate: true } },
        { extends: true, test: { name: "shared", include, exclude: [...exclude, ...isolated], isolate: false } },
      ],
    },
  }),
);
