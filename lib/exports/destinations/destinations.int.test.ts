import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { startFakeNotion, type FakeNotion } from "@/test/fakes/notion/server";
import { seedTranscript, videoIds } from "@/test/publishing";
import { callRoute } from "@/test/request";
import { waitUntil } from "@/test/wait";

// Export destinations through their route handlers on PostgreSQL, with the delivery runner: a transcript new in
// the account is written once into a folder under EXPORT_FOLDER_ROOT and made a page in a database of a fake
// Notion that keeps Notion's rate limits; a correction updates both, keeping what the person wrote outside
// Verbatim's block; a failing destination says why; bad input is a 4xx.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let root: string;
let notion: FakeNotion;
let runner: { stop(): Promise<void> };
type Handler = Parameters<typeof callRoute>[0];
let r: { list: Handler; create: Handler; remove: Handler };
const nextVideo = videoIds("dst");
const DATABASE = "0f2b5c1e-58c4-4a8d-9f6e-3b1a2c4d5e6f";
const TOKEN = "ntn_fake_integration_token_0001";

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "verbatim-dest-"));
  notion = await startFakeNotion();
  notion.grant(TOKEN, DATABASE, "Title");
  process.env.APP_URL = "http://localhost:3000";
  process.env.EXPORT_FOLDER_ROOT = root;
  process.env.NOTION_API_URL = notion.origin;
  process.env.EXPORT_RETRY_BASE_MS = "200";
  ctx = await useTestDatabase();
  const { createOutbound } = await import("@/lib/http/outbound");
  const { startExportRunner } = await import("@/lib/exports/destinations/runner");
  runner = startExportRunner({
    db: ctx.db,
    outbound: createOutbound({ allowPrivateFor: (host) => host === "127.0.0.1" }),
    pollMs: 50,
    listenUrl: null,
  });
  const routes = await import("@/app/v1/exports/destinations/route");
  const one = await import("@/app/v1/exports/destinations/[id]/route");
  r = { list: routes.GET, create: routes.POST, remove: one.DELETE };
});

afterAll(async () => {
  await runner?.stop();
  await notion?.close();
  await ctx?.teardown();
  if (root) await rm(root, { recursive: true, force: true });
});

interface Destination {
  id: string;
  state: string;
  last_error: string | null;
  next_attempt_at: string | null;
  deliveries: Record<string, number>;
  last_note: string | null;
}

async function destinations(headers: Record<string, string>): Promise<Destination[]> {
  const res = await callRoute(r.list, "/v1/exports/destinations", { headers });
  expect(res.status, res.text).toBe(200);
  return (res.json as { destinations: Destination[] }).destinations;
}

async function add(headers: Record<string, string>, body: object) {
  return callRoute(r.create, "/v1/exports/destinations", { headers, body });
}

async function delivered(transcriptId: string, generation = 1) {
  return waitUntil(`delivery of ${transcriptId} (generation ${generation})`, () =>
    ctx.db.exportDelivery
      .findMany({ where: { transcriptId } })
      .then((rows) =>
        rows.length > 0 && rows.every((d) => d.status !== "pending" && d.deliveredGeneration >= generation)
          ? rows
          : null,
      ),
  );
}

async function correct(userId: string, transcriptId: string, text: string) {
  const row = await ctx.db.transcript.findUniqueOrThrow({ where: { id: transcriptId } });
  const segments = (row.segments as { start: number; end: number; text: string }[]).map((s, i) =>
    i === 0 ? { ...s, text } : s,
  );
  await ctx.db.transcriptRevision.create({
    data: { userId, transcriptId, segments, sizeBytes: JSON.stringify(segments).length },
  });
}

describe("export destinations", () => {
  it("refuses bad input with a 4xx in the contract's shapes", async () => {
    const { headers } = await createCaller(ctx.db);
    for (const body of [
      { kind: "folder", path: "../outside" },
      { kind: "folder", path: "/etc" },
      { kind: "folder" },
      { kind: "notion", database_id: DATABASE },
      { kind: "notion", database_id: "not-an-id", token: TOKEN },
      { kind: "folder", path: "vault", token: TOKEN },
      { kind: "dropbox" },
    ]) {
      const res = await add(headers, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Array.isArray((res.json as { detail: unknown }).detail)).toBe(true);
    }
    expect((await add(headers, { kind: "folder", path: "vault" })).status).toBe(201);
    const again = await add(headers, { kind: "folder", path: "./vault/" });
    expect([again.status, (again.json as { code: string }).code]).toEqual([409, "destination_exists"]);
    const missing = await callRoute(r.remove, "/v1/exports/destinations/nope", {
      method: "DELETE",
      headers,
      params: { id: "nope" },
    });
    expect(missing.status).toBe(404);
  });

  it("writes each new transcript into the folder once, and a correction into Verbatim's block only", async () => {
    const { userId, headers } = await createCaller(ctx.db);
    const res = await add(headers, { kind: "folder", path: "alice/vault", name: "Vault" });
    expect(res.status, res.text).toBe(201);
    const transcript = await seedTranscript(ctx.db, userId, { videoId: nextVideo(), title: "Grit, a talk" });
    const [first] = await delivered(transcript.id);
    const file = path.join(root, "alice/vault", first!.remoteRef!);
    const written = await readFile(file, "utf8");
    expect(written).toMatch(/^---\ntitle: Grit, a talk\n/);
    expect(written).toContain("<!-- verbatim:begin");
    // No temporary file is left beside it.
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(path.join(root, "alice/vault"))).toEqual([first!.remoteRef]);

    // The person adds their notes below the block; a correction rewrites the block and keeps them.
    await writeFile(file, `${written}\n## My notes\n\nRemember this.\n`);
    await correct(userId, transcript.id, "A corrected first line.");
    await delivered(transcript.id, 2);
    const merged = await readFile(file, "utf8");
    expect(merged).toContain("A corrected first line.");
    expect(merged.endsWith("## My notes\n\nRemember this.\n")).toBe(true);

    // With the block's lines gone, the person's file is kept and the destination says so.
    const theirs = merged.replace(/<!-- verbatim:end -->\n/, "");
    await writeFile(file, theirs);
    await correct(userId, transcript.id, "Corrected once more.");
    await delivered(transcript.id, 3);
    expect(await readFile(file, "utf8")).toBe(theirs);
    const [listed] = await destinations(headers);
    expect(listed).toMatchObject({ state: "ok", deliveries: { kept: 1, delivered: 0, pending: 0, failed: 0 } });
    expect(listed!.last_note).toMatch(/your version is kept/);
  });

  it("makes a page per transcript in a Notion database, within its rate limits, and replaces it on a correction", async () => {
    const { userId, headers } = await createCaller(ctx.db);
    const res = await add(headers, { kind: "notion", database_id: DATABASE, token: TOKEN, name: "Research" });
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toContain(TOKEN);
    expect(res.json).toMatchObject({ has_token: true, database_id: DATABASE });
    const row = await ctx.db.exportDestination.findFirstOrThrow({ where: { userId } });
    expect(row.secretCipher).not.toContain(TOKEN);

    const transcripts = [];
    for (let i = 0; i < 3; i++)
      transcripts.push(await seedTranscript(ctx.db, userId, { videoId: nextVideo(), title: `Talk ${i}` }));
    for (const t of transcripts) await delivered(t.id);
    const live = [...notion.pages.values()].filter((p) => p.databaseId === DATABASE && !p.archived);
    expect(live.map((p) => p.title).sort()).toEqual(["Talk 0", "Talk 1", "Talk 2"]);
    expect(live[0]!.blocks.length).toBeGreaterThan(3);

    const before = (await ctx.db.exportDelivery.findFirstOrThrow({ where: { transcriptId: transcripts[0]!.id } }))
      .remoteRef!;
    await correct(userId, transcripts[0]!.id, "Corrected in Notion too.");
    await delivered(transcripts[0]!.id, 2);
    const after = (await ctx.db.exportDelivery.findFirstOrThrow({ where: { transcriptId: transcripts[0]!.id } }))
      .remoteRef!;
    expect(after).not.toBe(before);
    expect(notion.pages.get(before)!.archived).toBe(true);
    expect(JSON.stringify(notion.pages.get(after)!.blocks)).toContain("Corrected in Notion too.");
    // Requests with one token kept to Notion's average of three a second; a 429 (arrival times jitter) was waited
    // out for its Retry-After, never lost.
    const accepted = notion.requests.filter((q) => q.status !== 429);
    const span = (accepted.at(-1)!.at - accepted[0]!.at) / 1000;
    expect((accepted.length - 1) / Math.max(span, 1)).toBeLessThanOrEqual(3);
    expect(notion.requests.filter((q) => q.status === 429).length).toBeLessThanOrEqual(2);
  });

  it("says why a failing destination fails, and when it is tried next", async () => {
    const { userId, headers } = await createCaller(ctx.db);
    const res = await add(headers, {
      kind: "notion",
      database_id: "11111111-2222-3333-4444-555555555555",
      token: "ntn_not_shared_with_anything",
    });
    expect(res.status, res.text).toBe(201);
    await seedTranscript(ctx.db, userId, { videoId: nextVideo(), title: "Nowhere" });
    const failing = await waitUntil("the destination to fail", async () => {
      const [d] = await destinations(headers);
      return d?.state === "failing" ? d : null;
    });
    expect(failing.last_error).toMatch(/Notion answered 401/);
    expect(failing.next_attempt_at).not.toBeNull();
    expect(failing.deliveries.pending).toBe(1);
    // The runner may be retrying that delivery at this moment, its row locked: on a loaded machine the delete can
    // outwait the database's lock timeout, which is a 503 with Retry-After (never a 500), and sent again as a
    // client does.
    const remove = () =>
      callRoute(r.remove, `/v1/exports/destinations/${failing.id}`, {
        method: "DELETE",
        headers,
        params: { id: failing.id },
      });
    let del = await remove();
    for (let attempt = 1; del.status === 503 && attempt < 5; attempt++) {
      expect(del.headers.get("retry-after"), del.text).toBeTruthy();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      del = await remove();
    }
    expect(del.status, del.text).toBe(204);
    expect(await destinations(headers)).toEqual([]);
  });
});
