import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, callRoute } from "@/test/request";
import { createUser, useTestDatabase } from "@/test/app-db";
import { gritSegments, seedTranscript, videoIds } from "@/test/publishing";
import { renderSrt, type Segment } from "@/lib/formats";
import { RATE_LIMITS } from "@/lib/http/rate-limits";

// What one save may hold is bounded by the media's length (density.ts), through the route handler against
// PostgreSQL on the real TED "Grit" talk (about six minutes): the outside probe's save (800 segments of 249
// nineteen-character words) is refused with a 422 item and nothing stored; and a loop of saves by one user
// meets a 429 with Retry-After within ten, at the default settings.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let route: typeof import("@/app/v1/transcripts/[id]/route");

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "1";
  delete process.env.EDIT_SAVES_PER_MINUTE;
  ctx = await useTestDatabase();
  route = await import("@/app/v1/transcripts/[id]/route");
});
afterAll(async () => ctx?.teardown());

const newVideoId = videoIds("dense");

async function caller() {
  const user = await createUser(ctx.db);
  const { ensureApiKey } = await import("@/lib/auth/api-keys");
  const { key } = await ensureApiKey(user.id);
  const transcript = await seedTranscript(ctx.db, user.id, { videoId: newVideoId() });
  return { userId: user.id, id: transcript.id, headers: bearer(key!) };
}

const patch = (who: { id: string; headers: Record<string, string> }, body: unknown) =>
  callRoute(route.PATCH, `/v1/transcripts/${who.id}`, {
    method: "PATCH",
    headers: who.headers,
    body,
    params: { id: who.id },
  });

const revisions = (who: { userId: string; id: string }) =>
  ctx.db.transcriptRevision.count({ where: { userId: who.userId, transcriptId: who.id } });

/** `count` words drawn from a vocabulary of 2,000 nineteen-character words, as the probe sent them. */
const probeWords = (count: number, from: number) =>
  Array.from({ length: count }, (_, w) => `w${String((from + w) % 2000).padStart(18, "q")}`).join(" ");

describe("PATCH /v1/transcripts/{id}: what the media can hold", () => {
  it("the probe's save (800 segments × 249 words of 19 characters, 4 MB) on a six-minute talk: 422 at body.segments, nothing stored", async () => {
    const who = await caller();
    const end = gritSegments().at(-1)!.end;
    const step = Math.floor((end / 800) * 1000) / 1000;
    const segments = Array.from({ length: 800 }, (_, i) => ({
      start: Math.round(i * step * 1000) / 1000,
      end: Math.round((i * step + step * 0.9) * 1000) / 1000,
      text: probeWords(249, i * 249),
    }));
    expect(Buffer.byteLength(JSON.stringify({ segments }))).toBeGreaterThan(3_900_000);
    const res = await patch(who, { segments });
    expect(res.status).toBe(422);
    expect((res.json as { detail: unknown }).detail).toEqual([
      expect.objectContaining({
        type: "value_error",
        loc: ["body", "segments"],
        msg: expect.stringMatching(/^Value error, this correction holds more text than 6 min \d+ s of media can hold/),
      }),
    ]);
    expect(await revisions(who)).toBe(0);
  });

  it("a subtitle file holding more words than the media: 422 at body.content, nothing stored", async () => {
    const who = await caller();
    const cues: Segment[] = gritSegments().map((s) => ({ ...s, text: `${s.text} ${"la ".repeat(60).trim()}` }));
    const res = await patch(who, { format: "srt", content: renderSrt(cues) });
    expect(res.status).toBe(422);
    expect((res.json as { detail: unknown }).detail).toEqual([
      expect.objectContaining({
        loc: ["body", "content"],
        msg: expect.stringContaining("more words than 6 min"),
      }),
    ]);
    expect(await revisions(who)).toBe(0);
  });

  it("the talk's own text, every word changed, is saved", async () => {
    const who = await caller();
    const segments = gritSegments().map((s) => ({ start: s.start, end: s.end, text: s.text.toUpperCase() }));
    const res = await patch(who, { segments });
    expect(res.status, res.text).toBe(200);
    expect(await revisions(who)).toBe(1);
  });

  it(`ten saves in a row: the ${RATE_LIMITS.editSaveBurst.points + 1}th meets 429 rate_limited with Retry-After`, async () => {
    const who = await caller();
    const original = gritSegments().slice(0, 3);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof patch>> | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await patch(who, { segments: original.map((s) => ({ ...s, words: undefined, text: `v${i}` })) });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    const allowed = RATE_LIMITS.editSaveBurst.points;
    expect(statuses).toEqual([...Array<number>(allowed).fill(200), ...Array<number>(10 - allowed).fill(429)]);
    expect(limited!.json).toMatchObject({ code: "rate_limited" });
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited!.headers.get("retry-after"))).toBeLessThanOrEqual(RATE_LIMITS.editSaveBurst.seconds);
    expect(await revisions(who)).toBe(allowed);
  });
});
