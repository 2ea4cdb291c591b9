import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";
import type { Segment } from "@/lib/formats";

// The read model against PostgreSQL: one transcript (the real TED "Grit" captions, test/publishing.ts) in two
// users' histories, the author's corrections stored as TranscriptRevision rows the way lib/edits stores them.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let read: typeof import("@/lib/transcripts/read");

beforeAll(async () => {
  ctx = await useTestDatabase();
  read = await import("@/lib/transcripts/read");
});
afterAll(async () => ctx?.teardown());

let videoCounter = 0;
const newVideoId = () => `read${String(++videoCounter).padStart(7, "0")}`;

const segmentsOf = (row: { segments: unknown }) => row.segments as Segment[];

/** A transcript in the author's and a reader's history, with two saved corrections by the author. */
async function corrected() {
  const author = await createUser(ctx.db);
  const reader = await createUser(ctx.db);
  const videoId = newVideoId();
  const transcript = await seedTranscript(ctx.db, author.id, { videoId });
  await seedTranscript(ctx.db, reader.id, { videoId });
  const original = segmentsOf(transcript);
  const saveRevision = (text: string, createdAt: Date) => {
    const segments = original.map((s, i) => (i === 0 ? { start: s.start, end: s.end, text } : s));
    return ctx.db.transcriptRevision.create({
      data: {
        userId: author.id,
        transcriptId: transcript.id,
        segments: segments as object[],
        sizeBytes: JSON.stringify(segments).length,
        createdAt,
      },
    });
  };
  const later = new Date(transcript.fetchedAt.getTime() + 60_000);
  const older = await saveRevision("First correction.", new Date(later.getTime() - 30_000));
  const newest = await saveRevision("Second correction.", later);
  return { author, reader, transcript, original, older, newest };
}

describe("readTranscript", () => {
  it("reads the viewer's current version by default: their newest correction, marked edited", async () => {
    const { author, transcript, original, newest } = await corrected();
    const view = await read.readTranscript(author.id, transcript.id);
    expect(view.edited).toBe(true);
    expect(view.revisionId).toBe(newest.id);
    expect(segmentsOf(view)[0]!.text).toBe("Second correction.");
    expect(segmentsOf(view).slice(1)).toEqual(original.slice(1));
    // Validators built from the row (the public page's ETag) change with each save.
    expect(view.fetchedAt).toEqual(newest.createdAt);
    expect(await read.readTranscript(author.id, transcript.id, { revision: read.CURRENT })).toEqual(view);
  });

  it("reads the original, as the source gave it, even when the viewer saved corrections", async () => {
    const { author, transcript, original } = await corrected();
    const view = await read.readTranscript(author.id, transcript.id, { revision: read.ORIGINAL });
    expect(view.edited).toBeUndefined();
    expect(view.revisionId).toBeUndefined();
    expect(segmentsOf(view)).toEqual(original);
    expect(view.fetchedAt).toEqual(transcript.fetchedAt);
  });

  it("reads a named revision of the viewer's, older ones included", async () => {
    const { author, transcript, older } = await corrected();
    const view = await read.readTranscript(author.id, transcript.id, { revision: older.id });
    expect(view.edited).toBe(true);
    expect(view.revisionId).toBe(older.id);
    expect(segmentsOf(view)[0]!.text).toBe("First correction.");
  });

  it("leaves everyone else's view alone: another user reads the original and cannot name the author's revision", async () => {
    const { reader, transcript, original, newest } = await corrected();
    const view = await read.readTranscript(reader.id, transcript.id);
    expect(view.edited).toBeUndefined();
    expect(segmentsOf(view)).toEqual(original);
    await expect(read.readTranscript(reader.id, transcript.id, { revision: newest.id })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("is a 404 for a transcript not in the viewer's history, or an unknown revision", async () => {
    const { author, transcript } = await corrected();
    const stranger = await createUser(ctx.db);
    await expect(read.readTranscript(stranger.id, transcript.id)).rejects.toMatchObject({ status: 404 });
    await expect(read.readTranscript(author.id, "no-such-transcript")).rejects.toMatchObject({ status: 404 });
    await expect(read.readTranscript(author.id, transcript.id, { revision: "no-such-revision" })).rejects.toMatchObject(
      { status: 404 },
    );
  });
});

describe("asSeenBy", () => {
  it("overlays a row the caller already holds with that viewer's newest correction, and only theirs", async () => {
    const { author, reader, transcript, newest } = await corrected();
    expect(await read.asSeenBy(author.id, transcript)).toEqual(await read.readTranscript(author.id, transcript.id));
    expect((await read.asSeenBy(author.id, transcript)).revisionId).toBe(newest.id);
    expect(await read.asSeenBy(reader.id, transcript)).toEqual(transcript);
  });
});

describe("the serialisers", () => {
  it("answer the version read: `edited` only on a correction, in any format", async () => {
    const { author, reader, transcript } = await corrected();
    const mine = await read.getTranscript(author.id, transcript.id, { format: "json" });
    expect(mine.edited).toBe(true);
    expect(mine.segments?.[0]?.text).toBe("Second correction.");
    const theirs = await read.getTranscript(reader.id, transcript.id, { format: "json" });
    expect("edited" in theirs).toBe(false);
    const original = await read.getTranscript(author.id, transcript.id, { format: "srt", revision: read.ORIGINAL });
    expect(original.segments).toBeNull();
    expect(original.content).not.toContain("Second correction.");
    expect(original.content).toContain(segmentsOf(transcript)[0]!.text.split(" ")[0]);
  });

  it("download the same version as a file named after the title", async () => {
    const { author, transcript } = await corrected();
    const file = await read.downloadTranscript(author.id, transcript.id, { format: "vtt" });
    expect(file.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(file.headers.get("content-disposition")).toContain(".vtt");
    expect(await file.text()).toContain("Second correction.");
  });
});
