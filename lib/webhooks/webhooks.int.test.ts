import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { startWebhookReceiver, type Receiver } from "@/test/webhook-receiver";
import { makeWav } from "@/test/uploads";
import { NextRequest } from "next/server";
import { Webhook } from "standardwebhooks";

// Outbound webhooks end to end on real PostgreSQL: account endpoints and per-request webhook_url are told of
// jobs (202), uploads and feed imports by the delivery runner, each request verified by a receiver using the
// reference `standardwebhooks` library; retries with growing gaps, 410 disabling, and the outbound guard
// refusing, at delivery time, a name that resolves to a private address.

const RETRY_BASE_MS = 150;
let world: ImportWorld;
let receiver: Receiver;
let deliveries: { stop(): Promise<void> };
type Route = (request: NextRequest, route: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
let r: Record<string, Route>;

beforeAll(async () => {
  world = await startImportWorld("webhooks", () => ({
    WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
    WEBHOOK_TIMEOUT_MS: "3000",
    WEBHOOK_MAX_ATTEMPTS: "5",
  }));
  receiver = await startWebhookReceiver();
  const { createOutbound } = await import("@/lib/http/outbound");
  const { defaultResolver } = await import("@/lib/http/outbound/connect");
  const { startDeliveryRunner } = await import("@/lib/webhooks/delivery-runner");
  // The app's guard (127.0.0.1 exempt for the fakes, as OUTBOUND_ALLOW_PRIVATE_HOSTS says), with a resolver
  // in which private.example.test points at this machine.
  const outbound = createOutbound({
    allowPrivateFor: (host) => host === "127.0.0.1",
    resolver: async (host) => (host === "private.example.test" ? ["127.0.0.1"] : defaultResolver(host)),
  });
  // No safety-net poll: every attempt here comes from a wake-up, a new delivery's signal or the timer armed for
  // the next retry, so a retry that nothing wakes up fails the test instead of waiting for a poll.
  deliveries = startDeliveryRunner({ db: world.ctx.db, outbound, pollMs: 3_600_000 });
  r = {
    webhooks: (await import("@/app/v1/me/webhooks/route")).POST,
    listWebhooks: (await import("@/app/v1/me/webhooks/route")).GET,
    deleteWebhook: (await import("@/app/v1/me/webhooks/[id]/route")).DELETE,
    rotate: (await import("@/app/v1/me/webhooks/[id]/rotate-secret/route")).POST,
    test: (await import("@/app/v1/me/webhooks/[id]/test/route")).POST,
    deliveries: (await import("@/app/v1/me/webhooks/[id]/deliveries/route")).GET,
    redeliver: (await import("@/app/v1/me/webhooks/[id]/deliveries/[delivery_id]/redeliver/route")).POST,
    requestSecret: (await import("@/app/v1/me/webhooks/request-secret/route")).POST,
    transcript: (await import("@/app/v1/transcript/route")).POST,
    importStart: (await import("@/app/v1/import/route")).POST,
    importGet: (await import("@/app/v1/import/[batch_id]/route")).GET,
    sign: (await import("@/app/v1/uploads/sign/route")).POST,
    put: (await import("@/app/uploads/[...path]/route")).PUT as unknown as Route,
  };
});

afterAll(async () => {
  await deliveries?.stop();
  await receiver?.close();
  await world?.close();
});

let paths = 0;
const newPath = () => `/hook-${++paths}`;

async function endpoint(auth: Record<string, string>, path: string, eventTypes?: string[], origin = receiver.origin) {
  const res = await callRoute(r.webhooks, "/v1/me/webhooks", {
    headers: auth,
    body: { url: `${origin}${path}`, ...(eventTypes ? { event_types: eventTypes } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  const out = res.json as { id: string; secret: string; enabled: boolean };
  receiver.secrets.set(path, out.secret);
  return out;
}

async function requestSecret(auth: Record<string, string>, path: string) {
  const res = await callRoute(r.requestSecret, "/v1/me/webhooks/request-secret", { method: "POST", headers: auth });
  expect(res.status, res.text).toBe(200);
  receiver.secrets.set(path, (res.json as { secret: string }).secret);
}

const typesAt = (path: string) => receiver.forPath(path).map((q) => q.payload?.type ?? "UNVERIFIED");

describe("webhook endpoints API", () => {
  it("creates with a whsec_ secret shown once, lists it masked, refuses http and the cap, rotates, deletes", async () => {
    const { headers: auth } = await world.caller();
    const created = await endpoint(auth, newPath(), ["transcript.completed"]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const list = (await callRoute(r.listWebhooks, "/v1/me/webhooks", { headers: auth })).json as {
      endpoints: { id: string; secret: string; event_types: string[] }[];
    };
    expect(list.endpoints).toHaveLength(1);
    expect(list.endpoints[0]).toMatchObject({ id: created.id, event_types: ["transcript.completed"] });
    expect(list.endpoints[0]!.secret).not.toBe(created.secret);
    expect(created.secret.startsWith(list.endpoints[0]!.secret.replace("…", ""))).toBe(true);

    const http = await callRoute(r.webhooks, "/v1/me/webhooks", {
      headers: auth,
      body: { url: "http://example.com/hook" },
    });
    expect(http.status).toBe(422);
    expect(http.text).toContain("https");
    const internal = await callRoute(r.webhooks, "/v1/me/webhooks", {
      headers: auth,
      body: { url: "https://10.0.0.1/hook" },
    });
    expect(internal.status).toBe(422);
    const badType = await callRoute(r.webhooks, "/v1/me/webhooks", {
      headers: auth,
      body: { url: "https://example.com/hook", event_types: ["nope"] },
    });
    expect(badType.status).toBe(422);

    const rotated = await callRoute(r.rotate, `/v1/me/webhooks/${created.id}/rotate-secret`, {
      method: "POST",
      headers: auth,
      params: { id: created.id },
    });
    expect(rotated.status).toBe(200);
    expect((rotated.json as { secret: string }).secret).toMatch(/^whsec_/);
    expect((rotated.json as { secret: string }).secret).not.toBe(created.secret);

    const other = await world.caller();
    const foreign = await callRoute(r.deleteWebhook, `/v1/me/webhooks/${created.id}`, {
      method: "DELETE",
      headers: other.headers,
      params: { id: created.id },
    });
    expect(foreign.status).toBe(404);
    const deleted = await callRoute(r.deleteWebhook, `/v1/me/webhooks/${created.id}`, {
      method: "DELETE",
      headers: auth,
      params: { id: created.id },
    });
    expect(deleted.status).toBe(204);
    expect(
      ((await callRoute(r.listWebhooks, "/v1/me/webhooks", { headers: auth })).json as { endpoints: unknown[] })
        .endpoints,
    ).toEqual([]);
  });

  it("caps endpoints per user (409)", async () => {
    const { headers: auth } = await world.caller();
    for (let i = 0; i < 10; i++) await endpoint(auth, newPath());
    const res = await callRoute(r.webhooks, "/v1/me/webhooks", {
      headers: auth,
      body: { url: `${receiver.origin}/one-too-many` },
    });
    expect(res.status).toBe(409);
    expect((res.json as { code: string }).code).toBe("too_many_webhooks");
  });

  it("refuses a second endpoint for the same URL (409 webhook_exists), so no event arrives twice", async () => {
    const { headers: auth } = await world.caller();
    const url = `${receiver.origin}${newPath()}`;
    const first = await endpoint(auth, url.slice(receiver.origin.length));
    const again = await callRoute(r.webhooks, "/v1/me/webhooks", { headers: auth, body: { url } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: "webhook_exists", detail: expect.stringContaining(first.id) });
    const listed = (await callRoute(r.listWebhooks, "/v1/me/webhooks", { headers: auth })).json as {
      endpoints: unknown[];
    };
    expect(listed.endpoints).toHaveLength(1);
    // Another account may use the same URL; the same account may once the first is deleted.
    const other = await world.caller();
    expect((await callRoute(r.webhooks, "/v1/me/webhooks", { headers: other.headers, body: { url } })).status).toBe(
      201,
    );
    await callRoute(r.deleteWebhook, `/v1/me/webhooks/${first.id}`, {
      method: "DELETE",
      headers: auth,
      params: { id: first.id },
    });
    expect((await callRoute(r.webhooks, "/v1/me/webhooks", { headers: auth, body: { url } })).status).toBe(201);
  });

  it("a per-request webhook_url needs the request signing secret first (422), and must be https", async () => {
    const { headers: auth } = await world.caller();
    const audio = `${world.podcasts.origin}/ex/nosecret.mp3`;
    const res = await callRoute(r.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio, webhook_url: `${receiver.origin}/x` },
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain("request-secret");
    await requestSecret(auth, "/unused");
    const plain = await callRoute(r.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio, webhook_url: "http://example.com/x" },
    });
    expect(plain.status).toBe(422);
  });
});

describe("events", () => {
  it("a caption-less job (202): transcript.completed to the endpoint and to the request's webhook_url, signed, once each", async () => {
    const { headers: auth } = await world.caller();
    const account = newPath();
    const perRequest = newPath();
    const skipped = newPath();
    await endpoint(auth, account);
    await endpoint(auth, skipped, ["import.completed"]);
    await requestSecret(auth, perRequest);
    const res = await callRoute(r.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${world.podcasts.origin}/ex/job-event.mp3`, webhook_url: `${receiver.origin}${perRequest}` },
    });
    expect(res.status, res.text).toBe(202);
    const jobId = (res.json as { job_id: string }).job_id;
    await receiver.waitFor(
      "both deliveries",
      () => receiver.forPath(account).length >= 1 && receiver.forPath(perRequest).length >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(typesAt(account)).toEqual(["transcript.completed"]);
    expect(typesAt(perRequest)).toEqual(["transcript.completed"]);
    expect(receiver.forPath(skipped)).toEqual([]);
    const [a] = receiver.forPath(account);
    const [p] = receiver.forPath(perRequest);
    expect(a!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(a!.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(a!.payload!.data).toMatchObject({
      job_id: jobId,
      status: "done",
      transcript_id: expect.any(String),
      error: null,
    });
    expect(String(a!.payload!.data.job_url)).toMatch(new RegExp(`/v1/jobs/${jobId}$`));
    expect(a!.payload!.data).not.toHaveProperty("segments");
    expect(p!.payload!.data).toMatchObject({ job_id: jobId, status: "done" });
    // What is sent is what /openapi.json documents under `webhooks`.
    const { transcriptEventSchema } = await import("@/lib/webhooks/schemas");
    expect(transcriptEventSchema.strict().safeParse(a!.payload).success).toBe(true);
  });

  it("a failed job: transcript.failed with its error code", async () => {
    const { headers: auth } = await world.caller();
    const path = newPath();
    await endpoint(auth, path);
    world.asr.respondWith(() => ({ words: [] }));
    try {
      const res = await callRoute(r.transcript, "/v1/transcript", {
        headers: auth,
        body: { audio: `${world.podcasts.origin}/ex/silence.mp3` },
      });
      expect(res.status, res.text).toBe(202);
      await receiver.waitFor("transcript.failed", () => receiver.forPath(path).length >= 1);
    } finally {
      world.asr.respondWith(() => ({ words: [{ word: "Hello.", start: 0.1, end: 0.6 }] }));
    }
    expect(typesAt(path)).toEqual(["transcript.failed"]);
    expect(receiver.forPath(path)[0]!.payload!.data).toMatchObject({
      status: "error",
      error: { code: "no_speech" },
      transcript_id: null,
    });
  });

  it("replacing the request signing secret: webhook_url deliveries verify with the old secret for 24 h, then with the new one only", async () => {
    const { headers: auth, userId } = await world.caller();
    const path = newPath();
    await requestSecret(auth, path);
    const oldSecret = receiver.secrets.get(path)!;
    await requestSecret(auth, path);
    const newSecret = receiver.secrets.get(path)!;
    expect(newSecret).not.toBe(oldSecret);
    const verifies = (secret: string, hook: { headers: Record<string, string>; body: string }) => {
      try {
        return Boolean(new Webhook(secret).verify(hook.body, hook.headers));
      } catch {
        return false;
      }
    };
    const sendJob = async (name: string) => {
      const res = await callRoute(r.transcript, "/v1/transcript", {
        headers: auth,
        body: { audio: `${world.podcasts.origin}/ex/${name}.mp3`, webhook_url: `${receiver.origin}${path}` },
      });
      expect(res.status, res.text).toBe(202);
    };

    await sendJob("rotation-grace");
    const [during] = await receiver
      .waitFor("the delivery during the grace", () => receiver.forPath(path).length >= 1)
      .then(() => receiver.forPath(path));
    expect(during!.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifies(newSecret, during!)).toBe(true);
    expect(verifies(oldSecret, during!)).toBe(true);

    // A day later the previous secret signs nothing.
    await world.ctx.db.webhookRequestSecret.update({
      where: { userId },
      data: { secretRotatedAt: new Date(Date.now() - 25 * 3600_000) },
    });
    await sendJob("rotation-after");
    await receiver.waitFor("the delivery after the grace", () => receiver.forPath(path).length >= 2);
    const after = receiver.forPath(path)[1]!;
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);
  });

  it("an upload: transcript.completed", async () => {
    const { headers: auth } = await world.caller();
    const path = newPath();
    await endpoint(auth, path);
    const signed = (
      await callRoute(r.sign, "/v1/uploads/sign", {
        headers: auth,
        body: { filename: "talk.wav", content_type: "audio/wav" },
      })
    ).json as { object_path: string; upload_url: string };
    const url = new URL(signed.upload_url);
    const wav = makeWav(1);
    const put = await r.put!(
      new NextRequest(url, {
        method: "PUT",
        headers: { "content-type": "audio/wav", "content-length": String(wav.length) },
        body: new Uint8Array(wav),
      }),
      {
        params: Promise.resolve({
          path: url.pathname
            .replace(/^\/uploads\//, "")
            .split("/")
            .map(decodeURIComponent),
        }),
      },
    );
    expect(put.status).toBeLessThan(300);
    const res = await callRoute(r.transcript, "/v1/transcript", {
      headers: auth,
      body: { upload: signed.object_path },
    });
    expect(res.status, res.text).toBe(202);
    await receiver.waitFor("the upload's event", () => receiver.forPath(path).length >= 1);
    expect(typesAt(path)).toEqual(["transcript.completed"]);
    expect(receiver.forPath(path)[0]!.payload!.data).toMatchObject({
      job_id: (res.json as { job_id: string }).job_id,
      platform: "upload",
      status: "done",
    });
  });

  it("a feed import: one import.completed with the counts to webhook_url; an endpoint for transcripts gets one per episode", async () => {
    const { headers: auth } = await world.caller();
    const perRequest = newPath();
    const transcripts = newPath();
    await requestSecret(auth, perRequest);
    await endpoint(auth, transcripts, ["transcript.completed", "transcript.failed"]);
    const res = await callRoute(r.importStart, "/v1/import", {
      headers: auth,
      body: {
        url: `${world.podcasts.origin}/generated/3.xml?prefix=webhooks`,
        webhook_url: `${receiver.origin}${perRequest}`,
      },
    });
    expect(res.status, res.text).toBe(200);
    const batchId = (res.json as { batch_id: string }).batch_id;
    await receiver.waitFor("import.completed", () => receiver.forPath(perRequest).length >= 1, 120_000);
    await receiver.waitFor("three transcript events", () => receiver.forPath(transcripts).length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(typesAt(perRequest)).toEqual(["import.completed"]);
    expect(receiver.forPath(perRequest)[0]!.payload!.data).toMatchObject({
      batch_id: batchId,
      status: "done",
      total: 3,
      done: 3,
      failed: 0,
      skipped: 0,
    });
    expect(typesAt(transcripts)).toEqual(["transcript.completed", "transcript.completed", "transcript.completed"]);
    const { importEventSchema } = await import("@/lib/webhooks/schemas");
    expect(importEventSchema.strict().safeParse(receiver.forPath(perRequest)[0]!.payload).success).toBe(true);
    expect(new Set(receiver.forPath(transcripts).map((q) => q.headers["webhook-id"])).size).toBe(3);
  });
});

describe("delivery", () => {
  async function deliveriesOf(auth: Record<string, string>, id: string) {
    const res = await callRoute(r.deliveries, `/v1/me/webhooks/${id}/deliveries`, { headers: auth, params: { id } });
    expect(res.status).toBe(200);
    return (
      res.json as {
        deliveries: {
          id: string;
          webhook_id: string;
          status: string;
          attempts: number;
          last_status_code: number | null;
          last_error: string | null;
        }[];
      }
    ).deliveries;
  }

  it("500 three times then 200: four attempts, same webhook-id, with waits between them", async () => {
    const { headers: auth } = await world.caller();
    const path = newPath();
    const { id } = await endpoint(auth, path);
    receiver.respond(path, (n) => (n <= 3 ? 500 : 200));
    const sent = await callRoute(r.test, `/v1/me/webhooks/${id}/test`, {
      method: "POST",
      headers: auth,
      params: { id },
    });
    expect(sent.status).toBe(202);
    await receiver.waitFor("the fourth attempt", () => receiver.forPath(path).length >= 4);
    const attempts = receiver.forPath(path);
    expect(attempts.every((q) => q.payload?.type === "webhook.test")).toBe(true);
    expect(new Set(attempts.map((q) => q.headers["webhook-id"])).size).toBe(1);
    // The runner waited between attempts: 1 + 3 + 9 times the base (±20 %), in all. How each wait grows is
    // retryDelayMs's unit test (lib/webhooks/sign.test.ts); the gaps one by one carry a loaded machine's noise here
    // (a busy runner lengthens one, a request's body read late shortens the next), and once the first came out
    // longer than the third.
    expect(attempts[3]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(RETRY_BASE_MS * 13 * 0.8 - 300);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.forPath(path)).toHaveLength(4);
    const [delivery] = await deliveriesOf(auth, id);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 4, last_status_code: 200 });
    const { webhookAttempts } = await import("@/lib/observability/metrics");
    const counted = Object.fromEntries((await webhookAttempts.get()).values.map((v) => [v.labels.outcome, v.value]));
    expect(counted.retry).toBeGreaterThanOrEqual(3);
    expect(counted.delivered).toBeGreaterThanOrEqual(1);

    // Send again: the same message (webhook-id) once more.
    const again = await callRoute(r.redeliver, `/v1/me/webhooks/${id}/deliveries/${delivery!.id}/redeliver`, {
      method: "POST",
      headers: auth,
      params: { id, delivery_id: delivery!.id },
    });
    expect(again.status).toBe(202);
    await receiver.waitFor("the redelivery", () => receiver.forPath(path).length >= 5);
    expect(receiver.forPath(path)[4]!.headers["webhook-id"]).toBe(delivery!.webhook_id);
  });

  it("an answer that is always 500 stops after WEBHOOK_MAX_ATTEMPTS, marked failed", async () => {
    const { headers: auth } = await world.caller();
    const path = newPath();
    const { id } = await endpoint(auth, path);
    receiver.respond(path, () => 500);
    await callRoute(r.test, `/v1/me/webhooks/${id}/test`, { method: "POST", headers: auth, params: { id } });
    await receiver.waitFor("five attempts", () => receiver.forPath(path).length >= 5, 60_000);
    for (let i = 0; i < 100 && (await deliveriesOf(auth, id))[0]!.status === "pending"; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await deliveriesOf(auth, id))[0]).toMatchObject({ status: "failed", attempts: 5, last_status_code: 500 });
  });

  it("410 disables the endpoint: no retry, later events are not sent", async () => {
    const { headers: auth } = await world.caller();
    const path = newPath();
    const { id } = await endpoint(auth, path);
    receiver.respond(path, () => 410);
    await callRoute(r.test, `/v1/me/webhooks/${id}/test`, { method: "POST", headers: auth, params: { id } });
    await receiver.waitFor("the 410", () => receiver.forPath(path).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, RETRY_BASE_MS * 4));
    expect(receiver.forPath(path)).toHaveLength(1);
    const list = (await callRoute(r.listWebhooks, "/v1/me/webhooks", { headers: auth })).json as {
      endpoints: { enabled: boolean; disabled_reason: string }[];
    };
    expect(list.endpoints[0]).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining("410") });
    expect((await deliveriesOf(auth, id))[0]).toMatchObject({ status: "failed", last_status_code: 410 });
    const test = await callRoute(r.test, `/v1/me/webhooks/${id}/test`, {
      method: "POST",
      headers: auth,
      params: { id },
    });
    expect(test.status).toBe(409);
    // A job's event skips the disabled endpoint.
    const res = await callRoute(r.transcript, "/v1/transcript", {
      headers: auth,
      body: { audio: `${world.podcasts.origin}/ex/after-410.mp3` },
    });
    expect(res.status).toBe(202);
    const jobId = (res.json as { job_id: string }).job_id;
    for (let i = 0; i < 200 && (await world.ctx.db.job.findUnique({ where: { id: jobId } }))?.status !== "done"; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await world.ctx.db.webhookDelivery.count({ where: { endpointId: id } })).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.forPath(path)).toHaveLength(1);
  });

  it("an endpoint failing for WEBHOOK_DISABLE_AFTER_HOURS is disabled with a notice; success clears failing_since", async () => {
    const { headers: auth } = await world.caller();
    const path = newPath();
    const { id } = await endpoint(auth, path);
    receiver.respond(path, (n) => (n === 1 ? 200 : 503));
    // Failing for days, then a success: failing_since is cleared and the endpoint stays enabled.
    await world.ctx.db.webhookEndpoint.update({
      where: { id },
      data: { failingSince: new Date(Date.now() - 73 * 3600_000) },
    });
    await callRoute(r.test, `/v1/me/webhooks/${id}/test`, { method: "POST", headers: auth, params: { id } });
    await receiver.waitFor("the first test event", () => receiver.forPath(path).length >= 1);
    for (
      let i = 0;
      i < 50 && (await world.ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).failingSince;
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await world.ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({
      failingSince: null,
      disabledAt: null,
    });

    // Failing for days, and failing again: disabled.
    await world.ctx.db.webhookEndpoint.update({
      where: { id },
      data: { failingSince: new Date(Date.now() - 73 * 3600_000) },
    });
    await callRoute(r.test, `/v1/me/webhooks/${id}/test`, { method: "POST", headers: auth, params: { id } });
    await receiver.waitFor("the second test event", () => receiver.forPath(path).length >= 2);
    let listed: { enabled: boolean; disabled_reason: string | null } | undefined;
    for (let i = 0; i < 50; i++) {
      listed = (
        (await callRoute(r.listWebhooks, "/v1/me/webhooks", { headers: auth })).json as { endpoints: (typeof listed)[] }
      ).endpoints[0];
      if (!listed?.enabled) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(listed).toMatchObject({ enabled: false, disabled_reason: "Every delivery failed for 72 hours." });
    // Its pending retry is not sent: it ends failed at its next attempt.
    await new Promise((resolve) => setTimeout(resolve, RETRY_BASE_MS * 3));
    expect(receiver.forPath(path)).toHaveLength(2);
  });

  it("finished deliveries older than 30 days are removed by the cleanup; pending ones stay", async () => {
    const { userId } = await world.caller();
    const { deleteOldDeliveries } = await import("@/lib/webhooks/delete-old-deliveries");
    const old = new Date(Date.now() - 31 * 86_400_000);
    const base = {
      userId,
      url: "https://example.com/x",
      messageId: "msg_old",
      eventType: "webhook.test",
      payload: {},
      createdAt: old,
    };
    await world.ctx.db.webhookDelivery.createMany({
      data: [
        { ...base, status: "delivered", nextAttemptAt: null },
        { ...base, status: "failed", nextAttemptAt: null },
        { ...base, status: "pending", nextAttemptAt: new Date(Date.now() + 3600_000) },
        { ...base, status: "delivered", nextAttemptAt: null, createdAt: new Date() },
      ],
    });
    expect(await deleteOldDeliveries()).toBeGreaterThanOrEqual(2);
    expect((await world.ctx.db.webhookDelivery.findMany({ where: { userId } })).map((d) => d.status).sort()).toEqual([
      "delivered",
      "pending",
    ]);
  });

  it("a name that resolves to a private address is refused when called, not sent", async () => {
    const { headers: auth } = await world.caller();
    const port = new URL(receiver.origin).port;
    const path = newPath();
    // Saved: the name itself is not internal. Called: it resolves to 127.0.0.1, which the guard refuses.
    const { id } = await endpoint(auth, path, undefined, `https://private.example.test:${port}`);
    await callRoute(r.test, `/v1/me/webhooks/${id}/test`, { method: "POST", headers: auth, params: { id } });
    for (let i = 0; i < 100 && (await deliveriesOf(auth, id))[0]!.status === "pending"; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const [delivery] = await deliveriesOf(auth, id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1, last_status_code: null });
    expect(delivery!.last_error).toMatch(/private|internal|not allowed|address/i);
    expect(receiver.forPath(path)).toEqual([]);
  });
});
