import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/test/app-db";
import { startFakeAssemblyAi, type FakeAssemblyAi, type FakeFault } from "@/test/fakes/assemblyai/server";
import { checkRecogniserFault, startAsrWorld, type AsrWorld } from "./asr-world";
import { recordFault } from "./report";

// The recogniser fails: AssemblyAI (the real SDK against the fake) answers every submission with a 500,
// never answers, or answers garbage. Each job retries (fast backoff here) up to its 5 attempts, then ends
// in `error` with its reservation refunded once; nothing is paid for at the recogniser. When the fault
// clears, the next job goes through. And AssemblyAI accepting every submission without the answer ever
// arriving: each job times out, retries, finds its transcript by the upload URL and is done, paid once.

const JOBS = 3;
let asr: FakeAssemblyAi;
let world: AsrWorld;

beforeAll(async () => {
  asr = await startFakeAssemblyAi();
  asr.respondWith(() => ({
    words: [
      { text: "Bread", start: 100, end: 400 },
      { text: "rises.", start: 450, end: 900 },
    ],
    queuedPolls: 0,
    processingPolls: 0,
  }));
  world = await startAsrWorld({ ASSEMBLYAI_API_KEY: asr.apiKey, ASSEMBLYAI_BASE_URL: asr.origin });
  // A guard against a hang, not a timing: its app's start took past the suite's 120 s beside the other suites on
  // two cores.
}, 300_000);

afterAll(async () => {
  await world?.close();
  await asr?.close();
});

const FAULTS: Array<{ name: string; fault: FakeFault }> = [
  { name: "500 on every submission", fault: { mode: "500", path: "/v2/transcript", method: "POST" } },
  { name: "no answer to submissions (timeout)", fault: { mode: "hang", path: "/v2/transcript", method: "POST" } },
  {
    name: "garbage (unparseable 200) to submissions",
    fault: { mode: "garbage", path: "/v2/transcript", method: "POST" },
  },
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

  it("accepts every submission but the answer never arrives: each job finds its own, done and paid once", async () => {
    const caller = await createCaller(world.db);
    const paidBefore = asr.submitted.length;
    asr.setFault({ mode: "lost-answer", path: "/v2/transcript", method: "POST" });
    const started = Date.now();
    try {
      const jobIds: string[] = [];
      for (let i = 0; i < JOBS; i++) jobIds.push(await world.submit(caller));
      const outcomes = await Promise.all(jobIds.map((id) => world.finished(id, caller)));
      expect(outcomes.map((o) => o.status)).toEqual(jobIds.map(() => "done"));
      const seconds = (Date.now() - started) / 1000;
      expect(asr.submitted.length - paidBefore).toBe(JOBS);
      const ledger = await world.ledger(caller.userId);
      for (const job of ledger.jobs) expect(job).toMatchObject({ status: "done", attempts: 2 });
      expect(ledger.used).toBe(ledger.held);
      expect(ledger.used).toBeGreaterThan(0);
      recordFault({
        scenario: "recogniser",
        injected: `AssemblyAI: submissions accepted, answers lost (timeout), ${JOBS} jobs`,
        lost: outcomes.filter((o) => o.status !== "done").length + (asr.submitted.length - paidBefore - JOBS),
        recoverySeconds: seconds,
        note: `every job done on its 2nd attempt, ${asr.submitted.length - paidBefore} paid submissions for ${JOBS} jobs`,
      });
    } finally {
      asr.setFault(null);
    }
  });
});
