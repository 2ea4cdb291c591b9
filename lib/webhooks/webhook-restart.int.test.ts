import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";
import { startWebhookReceiver, type Receiver } from "@/test/webhook-receiver";
import { makeWav } from "@/test/uploads";
import { killableWorkers } from "@/test/jobs/helpers";
import { waitUntil } from "@/test/wait";

// A guard against a hang, not a timing: beside the other suites on two cores the workers these tests start and
// kill took minutes to come up.
vi.setConfig({ testTimeout: 10 * 60_000 });

// A webhook is never lost to a crash: `npm run worker` (a child process) finishes a job, which queues its
// transcript.completed in the finishing transaction, and is killed with SIGKILL while its delivery attempt is
// in flight (the receiver holds the request). A second worker sends the same message (same webhook-id) again
// once the dead one's claim expires.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let asr: FakeOpenAiAsr;
let receiver: Receiver;
let audioServer: http.Server;
let audioBase: string;
let dataDir: string;
const workers = killableWorkers();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-webhook-restart-"));
  const audio = makeWav(1);
  audioServer = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "audio/wav", "content-length": audio.length }).end(audio),
  );
  await new Promise<void>((resolve) => audioServer.listen(0, "127.0.0.1", resolve));
  audioBase = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;
  asr = await startFakeOpenAiAsr();
  asr.respondWith(() => ({ words: [{ word: "Hello.", start: 0.1, end: 0.6 }] }));
  receiver = await startWebhookReceiver();
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    ASR_OPENAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RATE_LIMIT_MULTIPLIER: "0",
  });
  ctx = await useTestDatabase();
});

afterEach(() => workers.stopAll());

afterAll(async () => {
  await receiver?.close();
  await asr?.close();
  await new Promise((resolve) => audioServer?.close(resolve));
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

const startWorker = () =>
  workers.start(["--lease-ms", "1500", "--poll-ms", "200"], {
    DATABASE_URL: ctx.url,
    DATA_DIR: dataDir,
    ASR_OPENAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    // A claim lasts 2 × 5 s + 1 s: the second worker takes the delivery over 11 s after the kill. A shorter wait
    // for the receiver's answer let a loaded machine's stall end an attempt before the receiver had read it: an
    // attempt counted that no receiver saw.
    WEBHOOK_TIMEOUT_MS: "5000",
  }).child;

it("kill -9 during the delivery attempt, restart: delivered with the same webhook-id", async () => {
  const { headers } = await createCaller(ctx.db);
  const create = (await import("@/app/v1/me/webhooks/route")).POST;
  const created = await callRoute(create, "/v1/me/webhooks", {
    headers,
    body: { url: `${receiver.origin}/crash`, event_types: ["transcript.completed"] },
  });
  expect(created.status, created.text).toBe(201);
  receiver.secrets.set("/crash", (created.json as { secret: string }).secret);
  // The first request is held (never answered); the next one is answered 200.
  receiver.respond("/crash", (n) => (n === 1 ? "hang" : 200));

  const transcript = (await import("@/app/v1/transcript/route")).POST;
  const res = await callRoute(transcript, "/v1/transcript", { headers, body: { audio: `${audioBase}/episode.wav` } });
  expect(res.status, res.text).toBe(202);
  const jobId = (res.json as { job_id: string }).job_id;

  const first = startWorker();
  await receiver.waitFor("the first attempt", (all) => all.length >= 1, 120_000);
  await workers.stop(first);
  expect(await ctx.db.job.findUnique({ where: { id: jobId } })).toMatchObject({ status: "done" });
  const held = await ctx.db.webhookDelivery.findFirstOrThrow({
    where: { userId: (await ctx.db.job.findUniqueOrThrow({ where: { id: jobId } })).userId },
  });
  expect(held).toMatchObject({ status: "pending", attempts: 1 });

  startWorker();
  await receiver.waitFor("the attempt after the restart", (all) => all.length >= 2, 120_000);
  const [lost, delivered] = receiver.forPath("/crash");
  expect(lost!.payload).toMatchObject({ type: "transcript.completed", data: { job_id: jobId } });
  expect(delivered!.payload).toEqual(lost!.payload);
  expect(delivered!.headers["webhook-id"]).toBe(lost!.headers["webhook-id"]);
  const row = () => ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: held.id } });
  await waitUntil(`delivery ${held.id} to be recorded as delivered`, async () => (await row()).status !== "pending", {
    state: row,
  });
  // Two attempts, or more where an answer came after the 5 s the attempt waits (a loaded machine): each one a
  // request the receiver saw, every one the same message.
  const attempts = receiver.forPath("/crash");
  expect(attempts.length).toBeGreaterThanOrEqual(2);
  for (const attempt of attempts) expect(attempt.headers["webhook-id"]).toBe(lost!.headers["webhook-id"]);
  expect(await row()).toMatchObject({
    status: "delivered",
    attempts: attempts.length,
    lastStatusCode: 200,
  });
}, 180_000);
