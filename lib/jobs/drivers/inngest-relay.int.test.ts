// The Inngest relay against PostgreSQL: an alert check the database queued (a trigger, in the transaction that made a
// transcript ready) is handed to Inngest's event API (a local stand-in here) as `verbatim/job.requested` once, woken
// by NOTIFY, and the run-pipeline function it triggers (run by @inngest/test) records the match once; a relay killed
// mid-batch loses no check, resends only what it had not marked, with the same event id, and no check matches twice.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { Inngest } from "inngest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { storeTranscript, type Segments } from "@/test/search";
import { spawnChildRelay } from "@/test/jobs/helpers";
import { waitUntil } from "@/test/wait";

interface SentEvent {
  id?: string;
  name: string;
  data: { jobId: string; userId: string };
}

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let db: PrismaClient;
let server: Server;
/** Every event the stand-in was sent, answered or not. */
const received: SentEvent[] = [];
/** Requests it answers before it holds the rest unanswered (Infinity: all). */
let answerUpTo = Infinity;
let answered = 0;
const held: ServerResponse[] = [];
/** The checks of the held requests. */
const heldJobs = new Set<string>();

const KEEPER: Segments = [{ start: 0, end: 5, text: "A lighthouse keeper spread marmalade on his toast." }];

function eventApi(req: IncomingMessage, res: ServerResponse) {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    const events = JSON.parse(body) as SentEvent[];
    received.push(...events);
    if (answered >= answerUpTo) {
      for (const event of events) heldJobs.add(event.data.jobId);
      return void held.push(res);
    }
    answered += 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ids: events.map((e) => e.id ?? "01EVENT"), status: 200 }));
  });
}

beforeAll(async () => {
  server = createServer(eventApi);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Read once by lib/jobs/drivers/inngest-settings.ts and the SDK when the app's modules are first imported.
  Object.assign(process.env, {
    INNGEST_EVENT_KEY: "relay-test-key",
    INNGEST_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    APP_URL: "https://verbatim.test",
    RATE_LIMIT_MULTIPLIER: "0",
    SEARCH_EMBEDDER: "off",
  });
  ctx = await useTestDatabase();
  db = ctx.db;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  delete process.env.INNGEST_EVENT_KEY;
  delete process.env.INNGEST_BASE_URL;
  await ctx?.teardown();
  await new Promise((resolve) => server?.close(resolve));
});

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

/** What Inngest does with an event: runs the app's run-pipeline function for it (here every time it is sent). */
async function runFunction(event: SentEvent) {
  const { createRunPipelineFunction } = await import("@/lib/jobs/drivers/inngest");
  const { appPipelines } = await import("@/lib/app/pipelines");
  const client = new Inngest({ id: "verbatim", logger: quiet, internalLogger: quiet });
  const fn = createRunPipelineFunction(client, { pipelines: appPipelines, db: async () => db });
  return new InngestTestEngine({ function: fn, events: [{ name: event.name, data: event.data }] }).execute();
}

/** A caller with a library alert for "lighthouse marmalade" and a webhook endpoint for its matches. */
async function watcher() {
  const caller = await createCaller(db);
  const alerts = await import("@/app/v1/alerts/route");
  const saved = await callRoute(alerts.POST, "/v1/alerts", {
    headers: caller.headers,
    body: { query: "lighthouse marmalade", scope: { kind: "library" } },
  });
  expect(saved.status).toBe(201);
  await db.webhookEndpoint.create({
    data: {
      userId: caller.userId,
      url: "https://hooks.example.com/in",
      eventTypes: ["alert.matched"],
      secretCipher: "x",
    },
  });
  return { ...caller, alertId: (saved.json as { id: string }).id };
}

/** The alert check the database queued for `transcriptId`. */
async function checkJob(transcriptId: string) {
  return db.job.findFirstOrThrow({
    where: { input: { path: ["context", "transcriptId"], equals: transcriptId } },
  });
}

const sentFor = (jobId: string) => received.filter((e) => e.data.jobId === jobId);

describe("the Inngest relay", () => {
  it("hands a trigger-queued alert check to Inngest once, woken by NOTIFY; its run matches once", async () => {
    const { startInngestRelay, relayEventId } = await import("@/lib/jobs/drivers/inngest-relay");
    const { enqueueJob } = await import("@/lib/jobs/enqueue");
    const { alertDigestPipeline } = await import("@/lib/alerts/digest-pipeline");
    const alice = await watcher();
    // The poll is out of reach: only the trigger's NOTIFY can wake it. One send at a time, in the order of the rows.
    const relay = await startInngestRelay({ db, listenUrl: ctx.url, pollMs: 3_600_000, concurrency: 1 });
    try {
      // A job enqueueJob sent itself (Inngest configured) is not the relay's to send again.
      const sentAlready = await enqueueJob(db, {
        userId: alice.userId,
        pipeline: alertDigestPipeline,
        context: { alertId: alice.alertId },
      });
      expect(sentAlready.dispatchedAt).not.toBeNull();

      const { transcript } = await storeTranscript(db, {
        segments: KEEPER,
        lang: "en",
        title: "Keeper",
        userIds: [alice.userId],
      });
      const job = await checkJob(transcript.id);
      expect(job).toMatchObject({ status: "queued", input: { pipeline: "alerts-match" } });
      const relayed = await waitUntil(`alert check ${job.id} to be handed to Inngest`, async () => {
        const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
        return row.dispatchedAt ? row : null;
      });
      expect(relayed).toMatchObject({ status: "queued", leaseOwner: null, leaseUntil: null });
      expect(sentFor(job.id)).toEqual([
        expect.objectContaining({
          id: relayEventId(job.id),
          name: "verbatim/job.requested",
          data: { jobId: job.id, userId: alice.userId },
        }),
      ]);
      // Claimed before the check (its row is older), had it been the relay's to send.
      expect(sentFor(sentAlready.id)).toHaveLength(1);

      const [event] = sentFor(job.id);
      const first = await runFunction(event!);
      expect(first.error).toBeUndefined();
      expect(first.result).toEqual({ jobId: job.id, finished: true });
      // The same event again (past Inngest's deduplication): the finished job runs nothing.
      expect((await runFunction(event!)).result).toEqual({ jobId: job.id, skipped: "done" });
      expect(await db.alertMatch.findMany({ where: { alertId: alice.alertId } })).toEqual([
        expect.objectContaining({ transcriptId: transcript.id }),
      ]);
      expect(await db.webhookDelivery.count({ where: { userId: alice.userId, eventType: "alert.matched" } })).toBe(1);
    } finally {
      await relay.stop();
    }
  });

  it("killed mid-batch, loses no check and sends again only what it had not marked, with the same ids", async () => {
    const { startInngestRelay, relayEventId } = await import("@/lib/jobs/drivers/inngest-relay");
    const bob = await watcher();
    const transcripts = [];
    for (let i = 0; i < 6; i++)
      transcripts.push(
        (await storeTranscript(db, { segments: KEEPER, lang: "en", title: `Keeper ${i}`, userIds: [bob.userId] }))
          .transcript,
      );
    const jobs = await Promise.all(transcripts.map((t) => checkJob(t.id)));
    const ids = jobs.map((j) => j.id);
    const dispatched = async () =>
      (await db.job.findMany({ where: { id: { in: ids }, dispatchedAt: { not: null } }, select: { id: true } })).map(
        (j) => j.id,
      );

    // The first two sends are answered, the next ones never: three in flight when it dies.
    received.length = 0;
    heldJobs.clear();
    answered = 0;
    answerUpTo = 2;
    // A lease longer than the test: under load a short one expires while a send is held, and the relay sends that
    // check again beside the others. Its expiry after the kill is the test's own step below.
    const child = await spawnChildRelay(ctx.url, { RELAY_OWNER: "doomed", CONCURRENCY: "3", LEASE_MS: "600000" });
    await waitUntil(
      "the child relay to have two sends answered and marked and three in flight",
      async () => heldJobs.size === 3 && (await dispatched()).length === 2,
      {
        state: async () => ({
          held: held.length,
          heldJobs: [...heldJobs],
          dispatched: await dispatched(),
          log: child.output(),
        }),
      },
    );
    child.child.kill("SIGKILL");
    await child.exited;
    // The dead relay's claims expire, as they would a lease later.
    await db.$executeRaw`UPDATE "Job" SET "leaseUntil" = now() - interval '1 second' WHERE "leaseOwner" = 'doomed'`;
    const marked = await dispatched();
    const inFlight = [...new Set(received.map((e) => e.data.jobId))].filter((id) => !marked.includes(id));
    expect(inFlight).toHaveLength(3);
    for (const res of held.splice(0)) res.destroy();

    answerUpTo = Infinity;
    const relay = await startInngestRelay({ db, listenUrl: null, pollMs: 50, leaseMs: 60_000 });
    try {
      await waitUntil("every check to be handed to Inngest", async () => (await dispatched()).length === 6, {
        state: dispatched,
      });
    } finally {
      await relay.stop();
    }
    for (const id of ids) {
      const sent = sentFor(id);
      // Marked: sent once. In flight when it died: sent again. Never claimed by the dead relay: sent once.
      expect(sent.length, id).toBe(inFlight.includes(id) ? 2 : 1);
      expect(new Set(sent.map((e) => e.id)), id).toEqual(new Set([relayEventId(id)]));
    }

    // Inngest takes one event per id; even if it ran every one sent, each transcript matches once.
    for (const event of [...received]) expect((await runFunction(event)).error).toBeUndefined();
    const matches = await db.alertMatch.findMany({ where: { alertId: bob.alertId } });
    expect(matches.map((m) => m.transcriptId).sort()).toEqual(transcripts.map((t) => t.id).sort());
    expect(await db.webhookDelivery.count({ where: { userId: bob.userId, eventType: "alert.matched" } })).toBe(6);
  });
});
