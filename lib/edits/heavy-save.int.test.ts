import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, callRoute } from "@/test/request";
import { createUser, useTestDatabase } from "@/test/app-db";
import { gritSegments, seedTranscript } from "@/test/publishing";
import type { Segment } from "@/lib/formats";
import { MAX_INDEX_TOKENS } from "@/lib/edits/validate";

// The heaviest corrections a caller can send, through the route handler against PostgreSQL: each is stored
// whole or refused whole with a 4xx in the contract's shape, and saves are rate-limited per user. The media is
// made long (LONG_MEDIA_SECONDS) so that what is tested is each bound past the words the media can hold
// (density.ts; dense-save.int.test.ts refuses the same bodies on the talk's own length).

const SAVES_PER_MINUTE = 4;
/** What one user's saves may index in a minute: the most one correction holds (MAX_INDEX_TOKENS), no more. */
const TOKENS_PER_MINUTE = 100_000;
/** Long enough for the most words a correction holds (MAX_INDEX_TOKENS) at ten words a second, and more. */
const LONG_MEDIA_SECONDS = 300_000;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let route: typeof import("@/app/v1/transcripts/[id]/route");

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "1";
  process.env.EDIT_SAVES_PER_MINUTE = String(SAVES_PER_MINUTE);
  process.env.EDIT_SAVE_TOKENS_PER_MINUTE = String(TOKENS_PER_MINUTE);
  // The heaviest saves are stored, not refused for a busy machine's slowness.
  process.env.EDIT_SAVE_SECONDS = "120";
  ctx = await useTestDatabase();
  route = await import("@/app/v1/transcripts/[id]/route");
});
afterAll(async () => ctx?.teardown());

let videos = 0;

/**
 * A caller with the Grit transcript in their history, first corrected into `count` segments of one timed word
 * (`unsaved`: stored as it is, so that none of the minute's tokens is spent).
 */
async function callerWithTimedWords(count: number, { unsaved = false } = {}) {
  const user = await createUser(ctx.db);
  const { ensureApiKey } = await import("@/lib/auth/api-keys");
  const { key } = await ensureApiKey(user.id);
  const videoId = `heavy${String(++videos).padStart(6, "0")}`;
  const transcript = await seedTranscript(ctx.db, user.id, { videoId });
  await ctx.db.transcript.update({ where: { id: transcript.id }, data: { durationSeconds: LONG_MEDIA_SECONDS } });
  const step = Math.floor((gritSegments().at(-1)!.end / count) * 1000) / 1000;
  const segments: Segment[] = Array.from({ length: count }, (_, i) => {
    const start = Math.round(i * step * 1000) / 1000;
    const end = Math.round((start + step * 0.9) * 1000) / 1000;
    return { start, end, text: `w${i}`, words: [{ start, end: start + 0.1, text: `w${i}` }] };
  });
  const caller = { userId: user.id, id: transcript.id, headers: bearer(key!), segments };
  if (unsaved)
    await ctx.db.transcriptRevision.create({
      data: {
        userId: user.id,
        transcriptId: transcript.id,
        segments: JSON.parse(JSON.stringify(segments)) as object[],
        sizeBytes: JSON.stringify(segments).length,
      },
    });
  else expect((await patch(caller, { segments })).status).toBe(200);
  return caller;
}

const patch = (caller: { id: string; headers: Record<string, string> }, body: unknown) =>
  callRoute(route.PATCH, `/v1/transcripts/${caller.id}`, {
    method: "PATCH",
    headers: caller.headers,
    body,
    params: { id: caller.id },
  });

const revisions = (caller: { userId: string; id: string }) =>
  ctx.db.transcriptRevision.count({ where: { userId: caller.userId, transcriptId: caller.id } });

/** `count` one-letter words: 2,500 of them fill a segment's 5,000 characters. */
const letters = (count: number, from = 0) =>
  Array.from({ length: count }, (_, w) => String.fromCharCode(97 + ((w + from) % 26))).join(" ");

describe("PATCH /v1/transcripts/{id} at its bounds", () => {
  it("800 segments of 2,500 words (about 4 MB): refused with a 422 item, nothing stored", async () => {
    // Nothing spent this minute: a body that may index the most a correction holds is counted before its work.
    const caller = await callerWithTimedWords(800, { unsaved: true });
    const body = { segments: caller.segments.map((s) => ({ start: s.start, end: s.end, text: letters(2500) })) };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(4_000_000);
    const res = await patch(caller, body);
    expect(res.status).toBe(422);
    expect((res.json as { detail: unknown }).detail).toEqual([
      expect.objectContaining({ loc: ["body", "segments"], msg: expect.stringContaining(`${MAX_INDEX_TOKENS} words`) }),
    ]);
    expect(await revisions(caller)).toBe(1);
  });

  it("39 segments of 2,451 words (near the most words a correction holds): stored, word times in order inside each segment", async () => {
    const caller = await callerWithTimedWords(39);
    const body = {
      segments: caller.segments.map((s, i) => ({ start: s.start, end: s.end, text: `w${i} ${letters(2450, i)}` })),
    };
    const res = await patch(caller, body);
    expect(res.status).toBe(200);
    expect(await revisions(caller)).toBe(2);
    const saved = (res.json as { segments: Segment[] }).segments;
    expect(saved).toHaveLength(39);
    // The one word each had keeps its time; every word lies inside its segment, in order.
    expect(saved.map((s) => s.words![0])).toEqual(caller.segments.map((s) => s.words![0]));
    const misplaced = saved.filter(
      (segment) =>
        segment.words!.length !== 2451 ||
        segment.words!.some(
          (word, w) =>
            word.start < segment.start ||
            word.end > segment.end ||
            (w > 0 && word.start < segment.words![w - 1]!.start),
        ),
    );
    expect(misplaced).toEqual([]);
  });

  it("as many different words as a correction may hold: stored, each word once in the search's terms", async () => {
    const caller = await callerWithTimedWords(110);
    // 110 × 833 words of 5 letters, each one different (a history entry once kept them all after its user's key,
    // past the 1 MiB one tsvector holds): the passages' postings hold each once.
    const word = (i: number, w: number) => (i * 833 + w).toString(36).padStart(5, "q");
    const body = {
      segments: caller.segments.map((s, i) => ({
        start: s.start,
        end: s.end,
        text: Array.from({ length: 833 }, (_, w) => word(i, w)).join(" "),
      })),
    };
    const res = await patch(caller, body);
    expect(res.status, res.text).toBe(200);
    expect(await revisions(caller)).toBe(2);
    const [row] = await ctx.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "SearchTerm" WHERE "term" = ANY ($1::text[])`,
      [word(0, 0), word(55, 400), word(109, 832)],
    );
    expect(row!.n).toBe(3);
  });

  it(`past ${SAVES_PER_MINUTE} saves a minute: 429 rate_limited with Retry-After`, async () => {
    const caller = await callerWithTimedWords(3);
    for (let i = 1; i < SAVES_PER_MINUTE; i++)
      expect((await patch(caller, { segments: caller.segments.map((s) => ({ ...s, text: `v${i}` })) })).status).toBe(
        200,
      );
    const res = await patch(caller, { segments: caller.segments });
    expect(res.status).toBe(429);
    expect(res.json).toMatchObject({ code: "rate_limited" });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await revisions(caller)).toBe(SAVES_PER_MINUTE);
  });

  it("past the tokens a user's saves may index in a minute: 429 rate_limited with Retry-After, nothing stored", async () => {
    const caller = await callerWithTimedWords(3);
    const segments = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ start: i, end: i + 0.5, text: `r${i} ${letters(2000, i)}` }));
    // 3 tokens (the first save), then 6,003, then 94,047: each within what one correction holds, together past
    // the minute's 100,000.
    expect((await patch(caller, { segments: segments(3) })).status).toBe(200);
    const res = await patch(caller, { segments: segments(47) });
    expect(res.status).toBe(429);
    expect(res.json).toMatchObject({ code: "rate_limited" });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await revisions(caller)).toBe(2);
  });

  it("a save past the minute's tokens is refused before any work, and one refused otherwise gives its tokens back", async () => {
    const caller = await callerWithTimedWords(3);
    const segments = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ start: i, end: i + 0.5, text: `r${i} ${letters(2000, i)}` }));
    const elsewhere = { ...caller, id: "not-in-this-history" };
    // 50 segments of 2,001 words may index the minute's 100,000 tokens: with 3 spent, refused before the
    // transcript is looked up (else this would be a 404), and what it would have spent is given back.
    const refused = await patch(elsewhere, { segments: segments(50) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // 49 (98,049 tokens): a 404 gives back what it held, so the same body is then stored.
    expect((await patch(elsewhere, { segments: segments(49) })).status).toBe(404);
    expect((await patch(caller, { segments: segments(49) })).status).toBe(200);
    expect(await revisions(caller)).toBe(2);
  });
});
