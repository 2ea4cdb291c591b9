import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { gritSegments, seedTranscript } from "@/test/publishing";
import { MAX_SPEAKER_CHARS, MAX_SPEAKERS, speakersOf } from "@/lib/formats/speakers";
import type { Segment } from "@/lib/formats";

// Renaming a speaker the source names, through the route handler, against PostgreSQL: the author's own
// correction (a new revision), bounded like any edit. The real TED "Grit" captions (test/publishing.ts), its
// first half given to one name and its second half to another, as a podcast's own transcript would.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let transcriptRoute: typeof import("@/app/v1/transcripts/[id]/route");
let revisionsRoute: typeof import("@/app/v1/transcripts/[id]/revisions/route").GET;

beforeAll(async () => {
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  transcriptRoute = await import("@/app/v1/transcripts/[id]/route");
  revisionsRoute = (await import("@/app/v1/transcripts/[id]/revisions/route")).GET;
});
afterAll(async () => ctx?.teardown());

const newCaller = () => createCaller(ctx.db);

type TranscriptJson = { id: string; segments: Segment[]; edited?: true; content: string | null };
type Caller = { headers: Record<string, string> };

const patch = (caller: Caller, id: string, body: unknown) =>
  callRoute(transcriptRoute.PATCH, `/v1/transcripts/${id}`, {
    method: "PATCH",
    headers: caller.headers,
    body,
    params: { id },
  });
const get = (caller: Caller, id: string, query = "") =>
  callRoute(transcriptRoute.GET, `/v1/transcripts/${id}${query}`, { headers: caller.headers, params: { id } });

let counter = 0;
/** A transcript in the caller's history whose segments name two speakers. */
async function seedNamed(
  userId: string,
  videoId = `spk${String(++counter).padStart(3, "0")}${Math.random().toString(36).slice(2, 7)}`.slice(0, 11),
) {
  const transcript = await seedTranscript(ctx.db, userId, { videoId });
  const segments = gritSegments();
  const half = Math.floor(segments.length / 2);
  const named = segments.map((s, i) => ({ ...s, speaker: i < half ? "Angela" : "Host" }));
  await ctx.db.transcript.update({ where: { id: transcript.id }, data: { segments: named as object[] } });
  return { transcript, named, videoId };
}

describe("renaming a speaker", () => {
  it("renames one speaker everywhere, as the author's own new revision; others still see the source's name", async () => {
    const author = await newCaller();
    const other = await newCaller();
    const { transcript, named, videoId } = await seedNamed(author.userId);
    await seedTranscript(ctx.db, other.userId, { videoId });

    const res = await patch(author, transcript.id, { rename_speaker: { from: "Angela", to: "  Angela   Duckworth " } });
    expect(res.status).toBe(200);
    const body = res.json as TranscriptJson;
    expect(body.edited).toBe(true);
    expect(speakersOf(body.segments)).toEqual(["Angela Duckworth", "Host"]);
    expect(body.segments.map((s) => s.text)).toEqual(named.map((s) => s.text));
    expect(body.segments.filter((s) => s.speaker === "Angela Duckworth")).toHaveLength(
      named.filter((s) => s.speaker === "Angela").length,
    );

    const srt = (await get(author, transcript.id, "?format=srt")).json as TranscriptJson;
    expect(srt.content!.startsWith("1\n")).toBe(true);
    expect(srt.content!.match(/^(Angela Duckworth|Host): /gm)).toEqual(["Angela Duckworth: ", "Host: "]);
    const vtt = (await get(author, transcript.id, "?format=vtt")).json as TranscriptJson;
    expect(vtt.content).toContain("<v Angela Duckworth>");

    const revisions = (
      await callRoute(revisionsRoute, `/v1/transcripts/${transcript.id}/revisions`, {
        headers: author.headers,
        params: { id: transcript.id },
      })
    ).json as { revisions: { id: string }[] };
    expect(revisions.revisions).toHaveLength(2);

    const theirs = (await get(other, transcript.id)).json as TranscriptJson;
    expect(speakersOf(theirs.segments)).toEqual(["Angela", "Host"]);
  });

  it("keeps each segment's speaker through a text correction that does not mention speakers", async () => {
    const author = await newCaller();
    const { transcript, named } = await seedNamed(author.userId);
    const edited = named.map(({ start, end, text }) => ({ start, end, text: text.replace(/\bgrit\b/gi, "GRIT") }));
    const res = await patch(author, transcript.id, { segments: edited });
    expect(res.status).toBe(200);
    expect((res.json as TranscriptJson).segments.map((s) => s.speaker)).toEqual(named.map((s) => s.speaker));
    // "" takes a segment's name away.
    const cleared = await patch(author, transcript.id, {
      segments: edited.map((s, i) => (i === 0 ? { ...s, speaker: "" } : s)),
    });
    expect((cleared.json as TranscriptJson).segments[0]!.speaker).toBeUndefined();
  });

  it("keeps speakers and word times through every action of the cue editor, saved as the editor sends them", async () => {
    const { editBody, editorReducer, initialEditorState } = await import("@/lib/browser/transcript-edits");
    const author = await newCaller();
    const { transcript, named } = await seedNamed(author.userId);
    // The source's own word times on every line (as a podcast's transcript or a diarised upload has them).
    const timed: Segment[] = named.map((s) => {
      const tokens = s.text.split(/\s+/u).filter(Boolean);
      const step = Math.floor(((s.end - s.start) / tokens.length) * 1000) / 1000;
      const at = (k: number) => Math.round((s.start + step * k) * 1000) / 1000;
      return { ...s, words: tokens.map((text, k) => ({ start: at(k), end: at(k + 1), text })) };
    });
    await ctx.db.transcript.update({ where: { id: transcript.id }, data: { segments: timed as object[] } });
    const last = timed.length - 1;
    const turn = named.findIndex((s) => s.speaker === "Host");
    const cut = timed[1]!.text.indexOf(" ");

    let state = initialEditorState(timed);
    state = editorReducer(state, { type: "set-text", index: 0, text: `${timed[0]!.text} indeed` });
    state = editorReducer(state, { type: "nudge", index: last, edge: "start", by: 0.1, maxEnd: timed[last]!.end });
    state = editorReducer(state, { type: "replace-all", find: "grit", replace: "GRIT" });
    state = editorReducer(state, { type: "merge-previous", index: turn, text: timed[turn]!.text });
    state = editorReducer(state, { type: "split", index: 1, text: timed[1]!.text, at: cut });
    const res = await patch(author, transcript.id, editBody(state.segments));
    expect(res.status).toBe(200);
    const saved = (res.json as TranscriptJson).segments;
    expect(saved).toEqual(state.segments);

    // Each action's line: its speaker as before, its unchanged words' times as the source gave them.
    expect(saved[0]).toMatchObject({ speaker: "Angela", words: [...timed[0]!.words!, expect.anything()] });
    expect([saved[1]!.speaker, saved[2]!.speaker]).toEqual(["Angela", "Angela"]);
    expect([...saved[1]!.words!, ...saved[2]!.words!]).toEqual(timed[1]!.words);
    expect(saved.at(-1)).toMatchObject({ start: timed[last]!.start + 0.1, speaker: "Host", text: timed[last]!.text });
    // The merged pair across the turn keeps the first line's speaker; every other line keeps its own.
    expect(saved[turn]).toMatchObject({ speaker: "Angela", text: `${timed[turn - 1]!.text} ${timed[turn]!.text}` });
    expect(saved.filter((s) => s.speaker === "Host")).toHaveLength(timed.length - turn - 1);
    expect(saved.some((s) => s.speaker === undefined)).toBe(false);
    const srt = (await get(author, transcript.id, "?format=srt")).json as TranscriptJson;
    expect(srt.content!.match(/^(Angela|Host): /gm)).toEqual(["Angela: ", "Host: "]);
  });

  it("answers 422 for a name nobody has, a blank or too long new name, two kinds of edit at once, and too many speakers", async () => {
    const author = await newCaller();
    const { transcript, named } = await seedNamed(author.userId);
    const problem = async (body: unknown) => {
      const res = await patch(author, transcript.id, body);
      expect(res.status).toBe(422);
      return (res.json as { detail: { loc: unknown[]; msg: string }[] }).detail[0]!;
    };
    expect((await problem({ rename_speaker: { from: "Nobody", to: "X" } })).loc).toEqual([
      "body",
      "rename_speaker",
      "from",
    ]);
    expect((await problem({ rename_speaker: { from: "Host", to: "   " } })).loc).toEqual([
      "body",
      "rename_speaker",
      "to",
    ]);
    const long = await problem({ rename_speaker: { from: "Host", to: "x".repeat(MAX_SPEAKER_CHARS + 1) } });
    expect(long.msg).toContain(`at most ${MAX_SPEAKER_CHARS} characters`);
    expect((await problem({ rename_speaker: { from: "Host", to: "X" }, segments: named })).loc).toEqual(["body"]);
    // Each segment in two halves, each half its own speaker: more speakers than one transcript keeps.
    const crowd = named.flatMap((s, i) => {
      const mid = Math.round(((s.start + s.end) / 2) * 1000) / 1000;
      return [
        { start: s.start, end: mid, text: s.text, speaker: `Guest ${2 * i}` },
        { start: mid, end: s.end, text: s.text, speaker: `Guest ${2 * i + 1}` },
      ];
    });
    expect(crowd.length).toBeGreaterThan(MAX_SPEAKERS);
    expect((await problem({ segments: crowd })).msg).toContain(`at most ${MAX_SPEAKERS} distinct speakers`);
    // Nothing was saved.
    expect(speakersOf(((await get(author, transcript.id)).json as TranscriptJson).segments)).toEqual([
      "Angela",
      "Host",
    ]);
  });
});
