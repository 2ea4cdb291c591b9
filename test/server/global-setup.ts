import path from "node:path";
import type { TestProject } from "vitest/node";
import { TEST_APPS_UP, startTestApps, testApps } from "../apps";
import { checkServerLogs } from "../secrets";
import { contractAppLog } from "./contract-app";

// What the server suite's files run against (test/apps.ts defines them for this suite and e2e): the main app
// (rate limits ×10), the fuzz app and the limits app (real limits, one file each, because those files use up
// per-address limits), and the YouTube and speech-recognition fakes. Under `npm test` they are already up,
// shared with e2e (VERBATIM_TEST_APPS_UP); run alone, this starts them and stops them at the end. Files get the
// apps' origins through inject("appOrigin") and the like.

declare module "vitest" {
  export interface ProvidedContext {
    appOrigin: string;
    fuzzOrigin: string;
    limitsOrigin: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVER_APPS = new Set(["youtube", "asr", "app", "fuzz", "limits"]);

export default async function setup(project: TestProject) {
  const { apps } = testApps();
  const mine = apps.filter((app) => SERVER_APPS.has(app.name));
  const stop = process.env[TEST_APPS_UP] ? null : await startTestApps(mine, ROOT);
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
