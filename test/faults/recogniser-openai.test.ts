import { afterAll, beforeAll, describe, it } from "vitest";
import { createCaller } from "@/test/app-db";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";
import { checkRecogniserFault, startAsrWorld, type AsrWorld } from "./asr-world";
import { recordFault } from "./report";

// The same with an OpenAI-compatible server (a self-hosted Whisper): 500s are retried inside each attempt
// and by the job (5 attempts), then the job fails with a refund; an answer that is not JSON is a
// misconfigured server, refused at once (1 attempt). Nothing is stored, and the next job succeeds.

const JOBS = 2;
let asr: FakeOpenAiAsr;
let world: AsrWorld;

beforeAll(async () => {
  asr = await startFakeOpenAiAsr();
  world = await startAsrWorld({ ASR_OPENAI_BASE_URL: asr.origin });
});

afterAll(async () => {
  await world?.close();
  await asr?.close();
});

describe("an OpenAI-compatible recogniser fails", () => {
  for (const [mode, attempts] of [
    ["500", 5],
    ["garbage", 1],
  ] as const) {
    it(`${mode}: jobs end in error after ${attempts} attempt(s), refunded once; the next job succeeds`, async () => {
      const caller = await createCaller(world.db);
      const answered = () => asr.requests.filter((r) => r.status === 200 && r.audioBytes > 0).length;
      const result = await checkRecogniserFault(world, caller, {
        jobs: JOBS,
        attempts,
        inject: () => asr.setFault(mode),
        clear: () => asr.setFault(null),
        paidCalls: answered,
      });
      recordFault({
        scenario: "recogniser",
        injected: `OpenAI-compatible: ${mode} on every request, ${JOBS} jobs`,
        lost: result.lost,
        recoverySeconds: result.recoverySeconds,
        note: `${attempts} attempt(s), then error + refund ("${result.message.slice(0, 50)}")`,
      });
    });
  }
});
