import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedTranscript } from "@/test/publishing";
import { seedEmbeddedDataDir } from "../../test/shared-fixtures";

// On the embedded database as the app opens it (PGlite in its thread, one connection, one statement at a time),
// a long correction's save indexes it in steps (lib/edits/revision-index.ts): another user's reads run between
// the steps, while the correction is written in part and not yet searched, not once the whole save is done.

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "verbatim-revision-index-"));
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = dataDir;
  await seedEmbeddedDataDir(dataDir);
  process.env.RATE_LIMIT_MULTIPLIER = "1000000";
  process.env.AUTH_SECRET ??= "integration-tests-secret-integration-tests";
});
afterAll(async () => {
  await (await import("@/lib/edits/revision-index")).revisionIndexIdle();
  await (await import("@/lib/db/client")).closeDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a long save on the embedded database", () => {
  it("lets another user's reads through between its indexing steps", async () => {
    const { getDb, dbKind } = await import("@/lib/db/client");
    const { saveEdit } = await import("@/lib/edits/revisions");
    const { readTranscript } = await import("@/lib/transcripts/read");
    const { revisionIndexIdle } = await import("@/lib/edits/revision-index");
    const db = await getDb();
    expect(await dbKind()).toBe("pglite");
    const [author, reader] = await Promise.all(
      ["author", "reader"].map((name) => db.user.create({ data: { email: `${name}-steps@example.test` } })),
    );
    const long = await seedTranscript(db, author.id, { videoId: "stepsembed1" });
    const own = await seedTranscript(db, reader.id, { videoId: "stepsembed2" });
    await db.transcript.update({ where: { id: long.id }, data: { durationSeconds: 100_000 } });
    // 60 lines of 40 different words: dozens of passages, several steps.
    const segments = Array.from({ length: 60 }, (_, i) => ({
      start: i * 10,
      end: i * 10 + 9,
      text: Array.from({ length: 40 }, (_, w) => `zq${(i * 40 + w).toString(36)}`).join(" "),
    }));

    const saving = saveEdit(author.id, long.id, { segments });
    let failed = false;
    saving.catch(() => (failed = true));
    // What each of the reader's reads found when it was answered: the correction's passages indexed so far, and
    // whether search serves it. Read until it does: the save answers within its deadline and leaves what is left
    // to the background (all of it on a loaded machine), whose steps let reads through alike.
    const seen: { written: number; served: boolean }[] = [];
    for (let served = false; !served && !failed;) {
      const own_ = await readTranscript(reader.id, own.id);
      expect(own_.id).toBe(own.id);
      const [state] = await db.$queryRaw<{ written: number; served: boolean }[]>`
        SELECT (SELECT count(*)::int FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId"
                WHERE r."userId" = ${author.id} AND rp."body" IS NULL) AS "written",
               EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = ${author.id} AND r."indexedAt" IS NOT NULL) AS "served"`;
      seen.push(state!);
      served = state!.served;
    }
    await saving;
    await revisionIndexIdle();
    const midway = seen.filter((s) => s.written > 0 && !s.served);
    expect(midway.length).toBeGreaterThan(1);
    // Reads in the middle saw more and more of it indexed: they ran between steps, not in one gap.
    expect(new Set(midway.map((s) => s.written)).size).toBeGreaterThan(1);
    expect(await db.transcriptRevision.count({ where: { userId: author.id, indexedAt: { not: null } } })).toBe(1);
  });

  it("a correction replacing another: reads run between the ranges each is cut in, the replaced one leaves nothing", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { saveEdit } = await import("@/lib/edits/revisions");
    const { readTranscript } = await import("@/lib/transcripts/read");
    const { revisionIndexIdle } = await import("@/lib/edits/revision-index");
    const db = await getDb();
    const [author, reader] = await Promise.all(
      ["author", "reader"].map((name) => db.user.create({ data: { email: `${name}-replace@example.test` } })),
    );
    const long = await seedTranscript(db, author.id, { videoId: "stepsembed3" });
    const own = await seedTranscript(db, reader.id, { videoId: "stepsembed4" });
    await db.transcript.update({ where: { id: long.id }, data: { durationSeconds: 100_000 } });
    // 3,000 one-letter lines, then 2,500 lines each with a speaker of 100 characters: three ranges each.
    const letters = Array.from({ length: 3000 }, (_, i) => ({ start: i, end: i + 0.5, text: "abcdefgh"[i % 8]! }));
    const named = Array.from({ length: 2500 }, (_, i) => ({
      start: i,
      end: i + 0.5,
      text: `line${i}`,
      speaker: `${"Speaker ".padEnd(95, "x")} ${String(i % 50).padStart(4, "0")}`,
    }));

    let saved = false;
    const saving = (async () => {
      await saveEdit(author.id, long.id, { segments: letters });
      await saveEdit(author.id, long.id, { segments: named });
      await revisionIndexIdle();
    })().finally(() => (saved = true));
    // How far each read found each correction cut (its last passage's last segment).
    const seen: { first: number | null; second: number | null }[] = [];
    while (!saved) {
      expect((await readTranscript(reader.id, own.id)).id).toBe(own.id);
      const [state] = await db.$queryRaw<{ first: number | null; second: number | null }[]>`
        SELECT (SELECT max(rp."segTo") FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId"
                WHERE r."userId" = ${author.id} AND jsonb_array_length(r."segments") = 3000) AS "first",
               (SELECT max(rp."segTo") FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId"
                WHERE r."userId" = ${author.id} AND jsonb_array_length(r."segments") = 2500) AS "second"`;
      seen.push(state!);
    }
    await saving;
    // Reads saw each correction cut in part: the cut ran in ranges, with reads between them.
    expect(seen.some((s) => s.first !== null && s.first < 2999)).toBe(true);
    expect(seen.some((s) => s.second !== null && s.second < 2499)).toBe(true);
    const revisions = await db.transcriptRevision.findMany({
      where: { userId: author.id },
      orderBy: { createdAt: "asc" },
      select: { id: true, indexedAt: true },
    });
    expect(revisions.map((r) => r.indexedAt !== null)).toEqual([false, true]);
    const [left] = await db.$queryRaw<{ passages: number; postings: number }[]>`
      SELECT (SELECT count(*)::int FROM "RevisionPassage" WHERE "revisionId" = ${revisions[0]!.id}) AS "passages",
             (SELECT count(*)::int FROM "SearchPosting" sp
              WHERE NOT EXISTS (SELECT 1 FROM "RevisionPassage" rp WHERE rp."pid" = sp."pid")
                AND NOT EXISTS (SELECT 1 FROM "TranscriptPassage" tp WHERE tp."pid" = sp."pid")) AS "postings"`;
    expect(left).toEqual({ passages: 0, postings: 0 });
  });
});
