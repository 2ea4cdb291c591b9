// Alerts end to end below HTTP's transport: saved through the API, matched when a transcript newly enters their
// scope (the database queues the check in the transaction that put it there), once per alert and transcript,
// delivered as an `alert.matched` webhook message, a mail through a real SMTP conversation, an Atom feed and an
// inbox; paused or deleted, silent at once; never matching what the owner cannot read.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { startFakeSmtp, type FakeSmtp } from "@/test/fakes/smtp/server";
import { callRoute as callRouteRaw } from "@/test/request";
import { indexCorrections, storeTranscript, type Segments } from "@/test/search";

/** A route's answer, its body read loosely: each test checks the fields it names. */
async function callRoute(...args: Parameters<typeof callRouteRaw>) {
  const answer = await callRouteRaw(...args);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { ...answer, json: answer.json as any };
}

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let db: PrismaClient;
let smtp: FakeSmtp;
let match: typeof import("@/lib/alerts/match-transcript");
let routes: {
  alerts: typeof import("@/app/v1/alerts/route");
  alert: typeof import("@/app/v1/alerts/[id]/route");
  matches: typeof import("@/app/v1/alerts/[id]/matches/route");
  read: typeof import("@/app/v1/alerts/[id]/read/route");
  preview: typeof import("@/app/v1/alerts/[id]/preview/route");
  feed: typeof import("@/app/alerts/[token]/feed.xml/route");
};

const KEEPER: Segments = [
  { start: 0, end: 4, text: "The ferry left the pier early this morning." },
  { start: 4, end: 9, text: "A lighthouse keeper spread marmalade on his toast." },
  { start: 9, end: 14, text: "Gulls circled the harbour all afternoon." },
];
const PRIVATE: Segments = [{ start: 0, end: 6, text: "Secret budget: lighthouse marmalade for the keeper." }];
const DULL: Segments = [{ start: 0, end: 5, text: "Nothing about the sea in this one at all." }];

beforeAll(async () => {
  smtp = await startFakeSmtp(undefined, 0, { acceptMail: true });
  Object.assign(process.env, {
    SMTP_URL: `smtp://verbatim:secret@127.0.0.1:${smtp.port}`,
    EMAIL_FROM: "Verbatim <alerts@verbatim.test>",
    APP_URL: "https://verbatim.test",
    RATE_LIMIT_MULTIPLIER: "0",
    SEARCH_EMBEDDER: "off",
    ALERT_MAX_FREE: "6",
    ALERT_MAX_MATCHES_PER_DAY: "3",
  });
  ctx = await useTestDatabase();
  db = ctx.db;
  match = await import("@/lib/alerts/match-transcript");
  routes = {
    alerts: await import("@/app/v1/alerts/route"),
    alert: await import("@/app/v1/alerts/[id]/route"),
    matches: await import("@/app/v1/alerts/[id]/matches/route"),
    read: await import("@/app/v1/alerts/[id]/read/route"),
    preview: await import("@/app/v1/alerts/[id]/preview/route"),
    feed: await import("@/app/alerts/[token]/feed.xml/route"),
  };
});

afterAll(async () => {
  await ctx?.teardown();
  await smtp?.close();
});

/** Runs every alert check the database has queued, as the local runner would, and marks them done. */
async function runQueuedChecks(): Promise<number> {
  const jobs = await db.job.findMany({
    where: { status: "queued", input: { path: ["pipeline"], equals: "alerts-match" } },
    orderBy: { createdAt: "asc" },
  });
  let matched = 0;
  for (const job of jobs) {
    matched += await match.checkTranscript((job.input as unknown as { context: never }).context);
    await db.job.update({ where: { id: job.id }, data: { status: "done" } });
  }
  return matched;
}

async function save(headers: Record<string, string>, body: object) {
  return callRoute(routes.alerts.POST, "/v1/alerts", { headers, body });
}

async function endpointFor(userId: string) {
  return db.webhookEndpoint.create({
    data: { userId, url: "https://hooks.example.com/in", eventTypes: ["alert.matched"], secretCipher: "x" },
  });
}

const deliveriesOf = (userId: string) =>
  db.webhookDelivery.findMany({ where: { userId, eventType: "alert.matched" }, orderBy: { createdAt: "asc" } });

describe("saving an alert", () => {
  it("creates, lists, reads, changes, pauses and deletes one, and refuses what would match everything", async () => {
    const alice = await createCaller(db);
    const created = await save(alice.headers, { query: "lighthouse marmalade", scope: { kind: "library" } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: "lighthouse marmalade",
      mode: "words",
      scope: { kind: "library", team_id: null, follow_ids: [] },
      paused: false,
      unread: 0,
    });
    expect(created.json.feed_url).toMatch(/^https:\/\/verbatim\.test\/alerts\/[A-Za-z0-9_-]{43}\/feed\.xml$/);
    const id = created.json.id as string;
    const listed = await callRoute(routes.alerts.GET, "/v1/alerts", { headers: alice.headers });
    expect(listed.json.alerts.map((a: { id: string }) => a.id)).toEqual([id]);
    const paused = await callRoute(routes.alert.PATCH, `/v1/alerts/${id}`, {
      headers: alice.headers,
      params: { id },
      method: "PATCH",
      body: { paused: true, name: "Keeper" },
    });
    expect(paused.json).toMatchObject({ paused: true, name: "Keeper" });
    const other = await createCaller(db);
    expect(
      (await callRoute(routes.alert.GET, `/v1/alerts/${id}`, { headers: other.headers, params: { id } })).status,
    ).toBe(404);

    for (const query of ["-lighthouse", "-the -harbour", "!!! ???", "   "]) {
      const refused = await save(alice.headers, { query, scope: { kind: "library" } });
      expect(refused.status, query).toBe(422);
      expect(JSON.stringify(refused.json.detail), query).toMatch(/query/);
    }
    const deleted = await callRoute(routes.alert.DELETE, `/v1/alerts/${id}`, {
      headers: alice.headers,
      params: { id },
      method: "DELETE",
    });
    expect(deleted.status).toBe(204);
    expect(await db.alertTerm.count({ where: { alertId: id } })).toBe(0);
  });

  it("keeps at most the tier's number of alerts per account", async () => {
    const bob = await createCaller(db);
    for (let i = 0; i < 6; i++)
      expect((await save(bob.headers, { query: `word${i}`, scope: { kind: "library" } })).status).toBe(201);
    const refused = await save(bob.headers, { query: "one more", scope: { kind: "library" } });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe("too_many_alerts");
  });

  it("keys a conjunction by one term and an OR by each of its terms", async () => {
    const carol = await createCaller(db);
    const and = await save(carol.headers, { query: '"harbour pilot" tugboat -ferry', scope: { kind: "library" } });
    const or = await save(carol.headers, { query: "tugboat OR schooner", scope: { kind: "library" } });
    const keys = async (id: string) =>
      (await db.alertTerm.findMany({ where: { alertId: id } })).map((t) => t.term).sort();
    // Each configuration's reading keyed by its rarest lexeme (none is held yet: the longest), never an excluded one.
    expect(await keys(and.json.id)).toHaveLength(1);
    expect(await keys(and.json.id)).not.toContain("ferri");
    // Every lexeme of an OR, as each configuration stems it.
    expect(await keys(or.json.id)).toEqual(expect.arrayContaining(["schooner", "tugboat", "schoon", "tugb"]));
  });
});

describe("matching new transcripts", () => {
  it("fires once per alert and transcript, naming its moments, by webhook, mail, feed and inbox", async () => {
    const alice = await createCaller(db);
    await db.user.update({ where: { id: alice.userId }, data: { email: "alice@verbatim.test" } });
    await endpointFor(alice.userId);
    const saved = await save(alice.headers, {
      query: "lighthouse marmalade",
      scope: { kind: "library" },
      email: true,
    });
    const id = saved.json.id as string;
    const { transcript } = await storeTranscript(db, {
      segments: KEEPER,
      lang: "en",
      title: "Keeper",
      userIds: [alice.userId],
    });
    await storeTranscript(db, { segments: DULL, lang: "en", title: "Dull", userIds: [alice.userId] });
    expect(await runQueuedChecks()).toBe(1);

    const inbox = await callRoute(routes.matches.GET, `/v1/alerts/${id}/matches`, {
      headers: alice.headers,
      params: { id },
    });
    expect(inbox.json.unread).toBe(1);
    const [found] = inbox.json.matches;
    expect(found).toMatchObject({ transcript_id: transcript.id, title: "Keeper", read: false });
    expect(found.moments[0]).toMatchObject({ start: 4, end: 9, segment_index: 1 });
    expect(found.moments[0].text).toContain("marmalade");
    expect(found.moments[0].links.viewer).toContain(transcript.id);
    expect(found.delivery).toEqual({ webhooks: 1, email: "sent" });

    const [delivery] = await deliveriesOf(alice.userId);
    expect(delivery!.payload).toMatchObject({
      type: "alert.matched",
      data: { alert_id: id, digest: false, matches: [{ transcript_id: transcript.id }] },
    });
    const mail = smtp.mails.find((m) => m.to.some((to) => to.includes("alice@verbatim.test")));
    expect(mail?.data).toContain("Keeper");
    expect(mail?.data).toMatch(/0:04 \(line 2\)/);

    // A second entry of the same transcript (another path to it), and the check run again: still once.
    await db.transcription.updateMany({ where: { transcriptId: transcript.id }, data: { state: "error" } });
    await db.transcription.updateMany({ where: { transcriptId: transcript.id }, data: { state: "done" } });
    expect(await runQueuedChecks()).toBe(0);
    expect(await db.alertMatch.count({ where: { alertId: id } })).toBe(1);
    expect(await deliveriesOf(alice.userId)).toHaveLength(1);

    const alert = await callRoute(routes.alert.GET, `/v1/alerts/${id}`, { headers: alice.headers, params: { id } });
    const feed = await callRoute(routes.feed.GET, new URL(alert.json.feed_url).pathname, {
      params: { token: new URL(alert.json.feed_url).pathname.split("/")[2]! },
    });
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toContain("application/atom+xml");
    expect(XMLValidator.validate(feed.text)).toBe(true);
    const atom = new XMLParser({ ignoreAttributes: false }).parse(feed.text);
    expect(atom.feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(atom.feed.entry.title).toBe("Keeper");
    expect(atom.feed.entry.link["@_href"]).toContain(transcript.id);
    expect((await callRoute(routes.feed.GET, "/alerts/x/feed.xml", { params: { token: "A".repeat(43) } })).status).toBe(
      404,
    );

    const read = await callRoute(routes.read.POST, `/v1/alerts/${id}/read`, {
      headers: alice.headers,
      params: { id },
      body: {},
    });
    expect(read.json.unread).toBe(0);
  });

  it("matches a transcript newly published for public alerts, and a followed show's episodes for a follows alert", async () => {
    const publisher = await createCaller(db);
    const watcher = await createCaller(db);
    const publicAlert = await save(watcher.headers, { query: "gulls harbour", scope: { kind: "public" } });
    const follow = await db.follow.create({
      data: { userId: watcher.userId, url: "https://example.com/feed.xml", kind: "podcast" },
    });
    const followAlert = await save(watcher.headers, {
      query: "ferry",
      scope: { kind: "follows", follow_ids: [follow.id] },
    });
    const { transcript } = await storeTranscript(db, {
      segments: KEEPER,
      lang: "en",
      title: "Pier",
      userIds: [publisher.userId],
    });
    expect(await runQueuedChecks()).toBe(0);
    await db.publication.create({
      data: { slug: "pier-1", userId: publisher.userId, transcriptId: transcript.id, publishedAt: new Date() },
    });
    expect(await runQueuedChecks()).toBe(1);
    const [pub] = (
      await callRoute(routes.matches.GET, "/", { headers: watcher.headers, params: { id: publicAlert.json.id } })
    ).json.matches;
    expect(pub.moments[0].links.page).toMatch(/\/t\/pier-1#t9-2$/);

    // A followed episode: its library entry is done first, the follow's item after it (as lib/follows does).
    const episode = await storeTranscript(db, { segments: KEEPER, lang: "en", title: "Episode", platform: "podcast" });
    await db.transcription.create({
      data: {
        userId: watcher.userId,
        platform: "podcast",
        videoId: episode.transcript.videoId,
        lang: "en",
        origin: "captions",
        transcriptId: episode.transcript.id,
        state: "done",
      },
    });
    const item = await db.followItem.create({
      data: { followId: follow.id, guid: "e1", title: "Episode", url: "https://example.com/e1.mp3", status: "running" },
    });
    expect(await runQueuedChecks()).toBe(0);
    await db.followItem.update({
      where: { id: item.id },
      data: { status: "done", transcriptId: episode.transcript.id },
    });
    expect(await runQueuedChecks()).toBe(1);
    expect(await db.alertMatch.count({ where: { alertId: followAlert.json.id } })).toBe(1);
  });

  it("stops at once when paused or deleted", async () => {
    const dan = await createCaller(db);
    const paused = await save(dan.headers, { query: "marmalade", scope: { kind: "library" } });
    const deleted = await save(dan.headers, { query: "lighthouse", scope: { kind: "library" } });
    await callRoute(routes.alert.PATCH, "/", {
      headers: dan.headers,
      params: { id: paused.json.id },
      method: "PATCH",
      body: { paused: true },
    });
    await callRoute(routes.alert.DELETE, "/", {
      headers: dan.headers,
      params: { id: deleted.json.id },
      method: "DELETE",
    });
    await storeTranscript(db, { segments: KEEPER, lang: "en", title: "Keeper", userIds: [dan.userId] });
    expect(await runQueuedChecks()).toBe(0);
    expect(await db.alertMatch.count({ where: { alertId: paused.json.id } })).toBe(0);
  });

  it("holds the matches past the day's cap for one digest", async () => {
    const erin = await createCaller(db);
    const saved = await save(erin.headers, { query: "marmalade", scope: { kind: "library" } });
    await endpointFor(erin.userId);
    for (let i = 0; i < 5; i++)
      await storeTranscript(db, { segments: KEEPER, lang: "en", title: `K${i}`, userIds: [erin.userId] });
    expect(await runQueuedChecks()).toBe(5);
    const rows = await db.alertMatch.findMany({ where: { alertId: saved.json.id } });
    expect(rows.filter((r) => r.digest)).toHaveLength(2);
    expect(await deliveriesOf(erin.userId)).toHaveLength(3);
    const digests = await db.job.findMany({
      where: { userId: erin.userId, input: { path: ["pipeline"], equals: "alerts-digest" } },
    });
    expect(digests).toHaveLength(1);
    expect(digests[0]!.runAt.getTime()).toBeGreaterThan(Date.now());
    const { alertDigestPipeline } = await import("@/lib/alerts/digest-pipeline");
    await alertDigestPipeline.steps[0]!.run({ alertId: saved.json.id }, {} as never);
    const sent = await deliveriesOf(erin.userId);
    expect(sent).toHaveLength(4);
    expect(sent[3]!.payload).toMatchObject({ data: { digest: true } });
    expect((sent[3]!.payload as { data: { matches: unknown[] } }).data.matches).toHaveLength(2);
  });

  it("previews what it would have matched in the last 30 days", async () => {
    const finn = await createCaller(db);
    await storeTranscript(db, { segments: KEEPER, lang: "en", title: "Old keeper", userIds: [finn.userId] });
    await storeTranscript(db, { segments: DULL, lang: "en", title: "Dull", userIds: [finn.userId] });
    const saved = await save(finn.headers, { query: "marmalade toast", scope: { kind: "library" } });
    const preview = await callRoute(routes.preview.POST, "/", {
      headers: finn.headers,
      params: { id: saved.json.id },
      method: "POST",
    });
    expect(preview.status).toBe(200);
    expect(preview.json.matches.map((m: { title: string }) => m.title)).toEqual(["Old keeper"]);
  });
});

describe("private stays private", () => {
  it("never matches another person's private transcript, another person's correction, or a team the owner left", async () => {
    const owner = await createCaller(db);
    const stranger = await createCaller(db);
    const library = await save(owner.headers, { query: "lighthouse marmalade", scope: { kind: "library" } });
    const everyone = await save(owner.headers, { query: "quasarine", scope: { kind: "public" } });
    const team = await db.user.create({ data: { kind: "team", name: "Crew", slug: `crew-${Date.now()}` } });
    await db.membership.create({ data: { teamId: team.id, userId: owner.userId, role: "member" } });
    const teamAlert = await save(owner.headers, { query: "marmalade", scope: { kind: "team", team_id: team.id } });
    expect(teamAlert.status).toBe(201);
    await runQueuedChecks();

    // Another person's private upload holding every word.
    await storeTranscript(db, {
      segments: PRIVATE,
      lang: "en",
      title: "Budget",
      platform: "upload",
      userIds: [stranger.userId],
    });
    // Another person's correction of a transcript both hold and one published by a third: the words only there.
    const shared = await storeTranscript(db, {
      segments: DULL,
      lang: "en",
      title: "Shared",
      userIds: [owner.userId, stranger.userId],
    });
    await db.publication.create({
      data: {
        slug: `shared-${Date.now()}`,
        userId: stranger.userId,
        transcriptId: shared.transcript.id,
        publishedAt: null,
      },
    });
    const corrected = DULL.map((s) => ({ ...s, text: `${s.text} lighthouse marmalade quasarine` }));
    await db.transcriptRevision.create({
      data: { userId: stranger.userId, transcriptId: shared.transcript.id, segments: corrected, sizeBytes: 100 },
    });
    await indexCorrections(db);
    // The team's transcript after the owner left the team.
    await db.membership.delete({ where: { teamId_userId: { teamId: team.id, userId: owner.userId } } });
    await storeTranscript(db, { segments: KEEPER, lang: "en", title: "Team's", userIds: [team.id] });
    await runQueuedChecks();
    for (const alert of [library, everyone, teamAlert])
      expect(await db.alertMatch.count({ where: { alertId: alert.json.id } }), alert.json.query).toBe(0);

    // The same words where the owner may read them do match: the test can fail.
    await storeTranscript(db, {
      segments: PRIVATE,
      lang: "en",
      title: "Own",
      platform: "upload",
      userIds: [owner.userId],
    });
    await runQueuedChecks();
    expect(await db.alertMatch.count({ where: { alertId: library.json.id } })).toBe(1);
  });

  it("does not even consider another account's private transcript: no candidate, so nothing to time", async () => {
    const owner = await createCaller(db);
    const stranger = await createCaller(db);
    await save(owner.headers, { query: "zanzibarine", scope: { kind: "library" } });
    await storeTranscript(db, {
      segments: [{ start: 0, end: 3, text: "zanzibarine in private" }],
      lang: "en",
      title: "Private",
      userIds: [stranger.userId],
    });
    const [job] = await db.job.findMany({
      where: { userId: stranger.userId, status: "queued", input: { path: ["pipeline"], equals: "alerts-match" } },
    });
    const context = (job!.input as unknown as { context: Parameters<typeof match.wordCandidates>[1] }).context;
    expect(await match.wordCandidates(await (await import("@/lib/db/client")).getDb(), context, false)).toEqual([]);
    await runQueuedChecks();
  });
});
