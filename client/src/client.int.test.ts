import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { startFakeOpenAiAsr, type FakeOpenAiAsr } from "@/test/fakes/openai-asr/server";
import { makeWav } from "@/test/uploads";
import { waitUntil } from "@/test/wait";
import { createVerbatimClient, verifyWebhook, VerbatimError, type VerbatimClient } from "./index";

// @verbatim/client against the app's route handlers served over HTTP (real PostgreSQL, the YouTube fake, an
// OpenAI-compatible recogniser fake, the local job runner and the webhook delivery runner in this process).

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let served: ServedRoutes;
let youtube: FakeYoutube;
let asr: FakeOpenAiAsr;
let audio: http.Server;
let audioBase: string;
let hooks: http.Server;
let hooksBase: string;
const received: { path: string; headers: Record<string, string>; body: string }[] = [];
let dataDir: string;
let runners: { stop(): Promise<void> }[] = [];
let client: VerbatimClient;

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-client-"));
  served = await serveRoutes({
    "/v1/transcript": { POST: lazy(() => import("@/app/v1/transcript/route"), "POST") },
    "/v1/jobs/[job_id]": { GET: lazy(() => import("@/app/v1/jobs/[job_id]/route"), "GET") },
    "/v1/me/webhooks": {
      GET: lazy(() => import("@/app/v1/me/webhooks/route"), "GET"),
      POST: lazy(() => import("@/app/v1/me/webhooks/route"), "POST"),
    },
    "/v1/me/webhooks/[id]/rotate-secret": {
      POST: lazy(() => import("@/app/v1/me/webhooks/[id]/rotate-secret/route"), "POST"),
    },
    "/v1/me/webhooks/[id]/test": { POST: lazy(() => import("@/app/v1/me/webhooks/[id]/test/route"), "POST") },
    "/v1/me/webhooks/request-secret": { POST: lazy(() => import("@/app/v1/me/webhooks/request-secret/route"), "POST") },
  });
  youtube = await startFakeYoutube();
  asr = await startFakeOpenAiAsr();
  asr.respondWith(() => ({
    words: [
      { word: "Hello", start: 0.1, end: 0.4 },
      { word: "world.", start: 0.5, end: 0.9 },
    ],
  }));
  const wav = makeWav(1);
  audio = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "audio/wav", "content-length": wav.length }).end(wav),
  );
  audioBase = await listen(audio);
  hooks = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({
        path: req.url ?? "/",
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
      });
      res.writeHead(204).end();
    });
  });
  hooksBase = await listen(hooks);
  Object.assign(process.env, {
    APP_URL: served.url,
    YOUTUBE_BASE_URL: youtube.url,
    ASR_OPENAI_BASE_URL: asr.origin,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    DATA_DIR: dataDir,
    RATE_LIMIT_MULTIPLIER: "0",
  });
  ctx = await useTestDatabase();
  const { appPipelines } = await import("@/lib/app/pipelines");
  const { startLocalRunner } = await import("@/lib/jobs/drivers/local");
  const { startDeliveryRunner } = await import("@/lib/webhooks/delivery-runner");
  const { appOutbound } = await import("@/lib/http/outbound/configured");
  runners = [
    await startLocalRunner({ pipelines: appPipelines, pollMs: 200, log: () => undefined }),
    startDeliveryRunner({ db: ctx.db, outbound: appOutbound(), pollMs: 100 }),
  ];
  const { headers } = await createCaller(ctx.db);
  client = createVerbatimClient({ baseUrl: served.url, apiKey: headers.authorization.replace("Bearer ", "") });
});

afterAll(async () => {
  for (const runner of runners) await runner.stop();
  await served?.close();
  await youtube?.close();
  await asr?.close();
  await new Promise((resolve) => audio?.close(resolve));
  await new Promise((resolve) => hooks?.close(resolve));
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("@verbatim/client", () => {
  it("transcribe() on a captioned link: the transcript at once (200)", async () => {
    const transcript = await client.transcribe(`https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`, {
      format: "srt",
    });
    expect(transcript).toMatchObject({
      source: "captions",
      platform: "youtube",
      video_id: FAKE_IDS.captioned,
      format: "srt",
    });
    expect(transcript.content).toMatch(/^1\n00:00:/);
  });

  it("transcribe() on audio: waits for the job (202 → done); wait: false returns the job", async () => {
    const job = await client.transcribe(`${audioBase}/later.wav`, { source: "audio", wait: false });
    expect(job).toMatchObject({ kind: "job", job: { status: "queued" } });
    const transcript = await client.transcribe(`${audioBase}/episode.wav`, { source: "audio", pollMs: 100 });
    expect(transcript).toMatchObject({ source: "asr", format: "json" });
    expect(transcript.segments?.map((s) => s.text).join(" ")).toContain("Hello world.");
  });

  it("errors carry the API's code", async () => {
    const unavailable = await client
      .transcribe(`https://www.youtube.com/watch?v=${FAKE_IDS.unavailable}`)
      .catch((error: unknown) => error);
    expect(unavailable).toBeInstanceOf(VerbatimError);
    expect(unavailable).toMatchObject({ status: 404, code: expect.any(String) });
    expect((unavailable as VerbatimError).code).not.toMatch(/^http_/);
    const missing = await client.waitForJob("no-such-job").catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, code: "not_found" });
    const anonymous = createVerbatimClient({ baseUrl: served.url });
    await expect(anonymous.transcribe(`https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`)).rejects.toMatchObject({
      status: 401,
      code: "unauthorized",
    });
    await expect(client.transcribe("")).rejects.toMatchObject({ status: 422, code: "validation_error" });
  });

  it("verifyWebhook() accepts events signed with the rotated secret (and the old one during the 24 h grace), refuses others", async () => {
    const created = await client.api.POST("/v1/me/webhooks", {
      body: { url: `${hooksBase}/client`, event_types: ["transcript.completed"] },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    const oldSecret = created.data!.secret;
    const rotated = await client.api.POST("/v1/me/webhooks/{id}/rotate-secret", { params: { path: { id } } });
    const newSecret = rotated.data!.secret;
    expect(newSecret).not.toBe(oldSecret);
    const sent = await client.api.POST("/v1/me/webhooks/{id}/test", { params: { path: { id } } });
    expect(sent.response.status).toBe(202);
    await waitUntil("the test event to reach the receiver", () => received.length > 0, {
      state: () => received.map((hook) => hook.path),
    });
    const [hook] = received;
    expect(hook).toBeDefined();
    const event = await verifyWebhook({ headers: hook!.headers, body: hook!.body }, newSecret);
    expect(event).toMatchObject({ type: "webhook.test", data: { endpoint_id: id } });
    // As a fetch Request too, and with both secrets during a rotation.
    const request = new Request("https://receiver.example/hook", {
      method: "POST",
      headers: hook!.headers,
      body: hook!.body,
    });
    expect((await verifyWebhook(request, [oldSecret, newSecret])).type).toBe("webhook.test");
    // For 24 hours after the rotation the previous secret's signature is sent too; an unrelated secret never verifies.
    expect((await verifyWebhook({ headers: hook!.headers, body: hook!.body }, oldSecret)).type).toBe("webhook.test");
    await expect(
      verifyWebhook({ headers: hook!.headers, body: hook!.body }, "whsec_" + Buffer.alloc(32, 7).toString("base64")),
    ).rejects.toMatchObject({ code: "invalid_signature" });
    // A day later: the new secret's signature only.
    await ctx.db.webhookEndpoint.update({
      where: { id },
      data: { secretRotatedAt: new Date(Date.now() - 25 * 3600_000) },
    });
    await client.api.POST("/v1/me/webhooks/{id}/test", { params: { path: { id } } });
    await waitUntil("the second test event to reach the receiver", () => received.length >= 2, {
      state: () => received.map((hook) => hook.path),
    });
    const after = received[1]!;
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect((await verifyWebhook({ headers: after.headers, body: after.body }, newSecret)).type).toBe("webhook.test");
    await expect(verifyWebhook({ headers: after.headers, body: after.body }, oldSecret)).rejects.toMatchObject({
      code: "invalid_signature",
    });
    await expect(
      verifyWebhook({ headers: hook!.headers, body: hook!.body.replace("test", "tost") }, newSecret),
    ).rejects.toBeInstanceOf(VerbatimError);
  });

  it("verifyWebhook() on a per-request webhook_url after the request secret was replaced: the old secret verifies during the grace, the new one always", async () => {
    const oldSecret = (await client.api.POST("/v1/me/webhooks/request-secret")).data!.secret;
    const newSecret = (await client.api.POST("/v1/me/webhooks/request-secret")).data!.secret;
    expect(newSecret).not.toBe(oldSecret);
    const job = await client.transcribe(`${audioBase}/per-request.wav`, {
      source: "audio",
      webhookUrl: `${hooksBase}/per-request`,
      wait: false,
    });
    expect(job.kind).toBe("job");
    const perRequest = () => received.find((hook) => hook.path === "/per-request");
    const hook = await waitUntil("transcript.completed to reach the per-request webhook_url", perRequest, {
      state: () => received.map((hook) => hook.path),
    });
    expect(hook).toBeDefined();
    expect((await verifyWebhook({ headers: hook!.headers, body: hook!.body }, oldSecret)).type).toBe(
      "transcript.completed",
    );
    expect((await verifyWebhook({ headers: hook!.headers, body: hook!.body }, newSecret)).type).toBe(
      "transcript.completed",
    );
  });
});
