import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, callRoute } from "@/test/request";
import { createUser, useTestDatabase } from "@/test/app-db";
import { parseSourceUrl } from "@/lib/sources";

// A publisher's file that loses passages in reading says so: stored with the transcript (sourceNote), answered
// as `source_note` by GET /v1/transcripts/{id}, on real PostgreSQL; a file read whole says nothing.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let getPublished: typeof import("@/lib/transcripts/published-transcript").getPublishedTranscript;
let record: typeof import("@/lib/transcripts/record-transcription").recordTranscription;
let remember: typeof import("@/lib/podcasts/episode-transcripts").rememberEpisodeTranscripts;
let getRoute: typeof import("@/app/v1/transcripts/[id]/route").GET;
const local = () => true;

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  ({ getPublishedTranscript: getPublished } = await import("@/lib/transcripts/published-transcript"));
  ({ recordTranscription: record } = await import("@/lib/transcripts/record-transcription"));
  ({ rememberEpisodeTranscripts: remember } = await import("@/lib/podcasts/episode-transcripts"));
  getRoute = (await import("@/app/v1/transcripts/[id]/route")).GET;
});
afterAll(async () => ctx?.teardown());

const serving = (body: string) =>
  ({
    safeFetchBuffer: async () => ({ ok: true, status: 200, body: new TextEncoder().encode(body) }),
  }) as never;

async function episodeAnswered(vtt: string, n: number) {
  const user = await createUser(ctx.db);
  const { ensureApiKey } = await import("@/lib/auth/api-keys");
  const { key } = await ensureApiKey(user.id);
  const audioUrl = `https://127.0.0.1/ex/note-${n}.mp3`;
  await remember(
    user.id,
    [
      {
        guid: `note-${n}`,
        title: "Episode",
        audioUrl,
        published: null,
        duration: null,
        transcripts: [{ url: `https://127.0.0.1/ex/note-${n}.vtt`, type: "text/vtt", language: "en" }],
      },
    ],
    { allowPrivateFor: local },
  );
  const source = parseSourceUrl(audioUrl, { allowPrivateFor: local })!;
  const stored = await getPublished(user.id, source, "en", { outbound: serving(vtt) });
  await record(user.id, stored!.transcript);
  const id = stored!.transcript.id;
  const res = await callRoute(getRoute, `/v1/transcripts/${id}`, { headers: bearer(key!), params: { id } });
  expect(res.status).toBe(200);
  return res.json as { segments: { text: string }[]; source_note?: string };
}

describe("a publisher's file that loses passages", () => {
  it("is stored and answered with a note saying what was lost; a whole one without", async () => {
    const lossy = await episodeAnswered("WEBVTT\n\n0.5 --> 2\nKept.\n\n00:02 --> later\nThese four are lost.\n", 1);
    expect(lossy.segments.map((s) => s.text)).toEqual(["Kept."]);
    expect(lossy.source_note).toMatch(/1 passage \(4 words\) that could not be read/);

    const whole = await episodeAnswered("WEBVTT\n\n0.860 --> 7.380\nAll of it.\n", 2);
    expect(whole.segments.map((s) => s.text)).toEqual(["All of it."]);
    expect(whole).not.toHaveProperty("source_note");
  });
});
