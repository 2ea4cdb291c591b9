import { afterAll, beforeAll, describe, it } from "vitest";
import { createCaller } from "@/test/app-db";
import { startFakeAssemblyAi, type FakeAssemblyAi, type FakeFault } from "@/test/fakes/assemblyai/server";
import { checkRecogniserFault, startAsrWorld, type AsrWorld } from "./asr-world";
import { recordFault } from "./report";

// The recogniser fails: AssemblyAI (the real SDK against the fake) answers every submission with a 500,
// never answers, or answers garbage. Each job retries (fast backoff here) up to its 5 attempts, then ends
// in `error` with its reservation refunded once; nothing is paid for at the recogniser. When the fault
// clears, the next job goes through.

const JOBS = 3;
let asr: FakeAssemblyAi;
let world: AsrWorld;

beforeAll(async () => {
  asr = await startFakeAssemblyAi();
  asr.respondWith(() => ({ words: [{ text: "Bread", start: 100, end: 400 }, { text: "rises.", start: 450, end: 900 }], queuedPolls: 0, processingPolls: 0 }));
  world = await startAsrWorld({ ASSEMBLYAI_API_KEY: asr.apiKey, ASSEMBLYAI_BASE_URL: asr.origin });
});

afterAll(async () => {
  await world?.close();
  await asr?.close();
});

const FAULTS: Array<{ name: string; fault: FakeFault }> = [
  { name: "500 on every submission", fault: { mode: "500", path: "/v2/transcript", method: "POST" } },
  { name: "no answer to submissions (timeout)", fault: { mode: "hang", path: "/v2/transcript", method: "POST" } },
  { name: "garbage (unparseable 200) to submissions", fault: { mode: "garbage", path: "/v2/transcript", method: "POST" } },
];

describe("AssemblyAI fails", () => {
  for (const { name, fault } of FAULTS) {
    it(`${name}: every job retries, ends in error, refunded once; the next job after the fault succeeds`, async () => {
      const caller = await createCaller(world.db);
      const result = await checkRecogniserFault(world, caller, {
        jobs: JOBS,
        attempts: 5,
        inject: () => asr.setFault(fault),
        clear: () => asr.setFault(null),
        paidCalls: () => asr.submitted.length,
      });
      recordFault({
        scenario: "recogniser",
        injected: `AssemblyAI: ${name}, ${JOBS} jobs`,
        lost: result.lost,
        recoverySeconds: result.recoverySeconds,
        note: `5 attempts each, then error + refund ("${result.message.slice(0, 50)}")`,
      });
    });
  }
});
