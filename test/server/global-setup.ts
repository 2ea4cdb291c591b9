import path from "node:path";
import type { TestProject } from "vitest/node";
import { SUITE_APPS, appsToStart, startTestApps, testApps } from "../apps";
import { checkServerLogs } from "../secrets";
import { contractAppLog } from "./contract-app";

// What the server suite's files run against (test/apps.ts defines them for this suite and e2e): the main app
// (rate limits ×10), the fuzz app and the limits app (real limits, one file each, because those files use up
// per-address limits), and the YouTube and speech-recognition fakes. Under `npm test` those e2e uses too are already
// up (VERBATIM_TEST_APPS_UP names them); this starts the others (all of them, run alone) and stops them at the end.
// Files get the apps' origins through inject("appOrigin") and the like.

declare module "vitest" {
  export interface ProvidedContext {
    appOrigin: string;
    fuzzOrigin: string;
    limitsOrigin: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");

export default async function setup(project: TestProject) {
  const { apps } = testApps();
  const mine = apps.filter((app) => SUITE_APPS.server.includes(app.name));
  const toStart = appsToStart(apps, SUITE_APPS.server);
  const stop = toStart.length ? await startTestApps(toStart, ROOT) : null;
  const origin = (name: string) => mine.find((app) => app.name === name)!.origin;
  project.provide("appOrigin", origin("app"));
  project.provide("fuzzOrigin", origin("fuzz"));
  project.provide("limitsOrigin", origin("limits"));

  return async () => {
    await stop?.();
    // No key or token this run was given, nothing shaped like one, in the logs of the apps this suite used
    // (complete when it started them itself). vitest prints an error thrown here but still exits 0: hence the
    // exit code.
    // contract.test.ts's own app too.
    const logs = new Set([...mine.map((app) => app.log), contractAppLog()].map((log) => path.basename(log)));
    try {
      checkServerLogs({ logs: (name) => logs.has(name) });
    } catch (error) {
      process.exitCode = 1;
      throw error;
    }
  };
}
