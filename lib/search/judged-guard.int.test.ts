// A guard on the search pipeline, judged by people's marks: a part of the judged set (test/judged-guard.ts: 12
// tracks of real speech, the questions they answer) in one reader's library on PostgreSQL, searched with the
// default embedder (its word vectors and the distilled vectors of the words said, made once for the run:
// test/shared-fixtures.ts). It catches a broken pipeline, not a lost point of relevance: the figures themselves, on
// both databases and the whole set, are `npm run eval`'s.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_EMBEDDER } from "@/lib/embeddings/default-model";
import { useTestDatabase } from "@/test/app-db";
import { judgedTrackSegments } from "@/test/fixtures/captions/judged-search";
import { judgeSearch, type JudgedFigures } from "@/test/judged-figures";
import { GUARD_QUERIES, GUARD_TRACKS } from "@/test/judged-guard";
import { storeTranscript } from "@/test/search";
import { useSharedModels } from "@/test/shared-fixtures";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let dir: string;
const USER = "guard";
const figures: Partial<Record<"keyword" | "hybrid", JudgedFigures>> = {};
const keywordControls: Record<string, { keyword: number; hybrid: number }> = {};

// The library is stored and every passage embedded before the first question: beside the whole suite on two cores
// that took past vitest's 180 s. A guard against a hang, not a timing.
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "judged-guard-"));
  process.env.DATA_DIR = dir;
  process.env.SEARCH_EMBEDDER = "default";
  process.env.SEARCH_DISTILLED_WORDS = String(DEFAULT_EMBEDDER.distilled.words);
  await useSharedModels(dir);
  ctx = await useTestDatabase();
  const { embedMissingPassages } = await import("./embed-passages");
  const { configuredEmbedder } = await import("@/lib/embeddings/registry");
  const { searchLibrary } = await import("./search-moments");
  const { searchQuerySchema } = await import("./schemas");
  const embedder = configuredEmbedder()!;
  await embedder.prepare();
  await ctx.db.user.create({ data: { id: USER, email: "guard@example.test" } });
  const keyOf = new Map<string, string>();
  for (const track of GUARD_TRACKS) {
    const { transcript } = await storeTranscript(ctx.db, {
      segments: judgedTrackSegments(track),
      lang: "en",
      title: track.title,
      userIds: [USER],
    });
    keyOf.set(transcript.id, track.key);
  }
  while ((await embedMissingPassages(embedder)).embedded > 0);
  const stored = await ctx.db.$queryRawUnsafe<{ transcriptId: string; pid: bigint; segFrom: number; segTo: number }[]>(
    `SELECT "transcriptId", "pid", "segFrom", "segTo" FROM "TranscriptPassage"`,
  );
  const ranked = (mode: "keyword" | "hybrid") => async (q: string) => {
    const { results } = await searchLibrary(USER, searchQuerySchema.parse({ q, limit: "10", mode }));
    // Each moment's passage (a moment found by meaning is at its answering line, inside it).
    return results.flatMap((m) => {
      const p = stored.find(
        (s) => s.transcriptId === m.transcript_id && s.segFrom <= m.segment_index && s.segTo >= m.segment_index,
      );
      return p ? [{ pid: p.pid, track: keyOf.get(p.transcriptId)!, segFrom: p.segFrom, segTo: p.segTo, text: "" }] : [];
    });
  };
  for (const mode of ["keyword", "hybrid"] as const) {
    figures[mode] = await judgeSearch(GUARD_QUERIES, ranked(mode));
    for (const judged of GUARD_QUERIES.filter((j) => j.kind === "keyword"))
      (keywordControls[judged.q] ??= { keyword: 0, hybrid: 0 })[mode] = (
        await judgeSearch([judged], ranked(mode))
      ).keyword.recall;
  }
}, 480_000);

afterAll(async () => {
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

describe("the judged guard, searched with the default embedder", () => {
  it("is a few hundred passages and a few dozen questions of every kind", async () => {
    const [{ n }] = await ctx.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "TranscriptPassage"`);
    expect(n).toBeGreaterThan(100);
    expect(n).toBeLessThan(500);
    expect(GUARD_QUERIES.filter((j) => j.kind === "meaning").length).toBeGreaterThanOrEqual(30);
    expect(GUARD_QUERIES.filter((j) => j.kind === "keyword").length).toBeGreaterThanOrEqual(5);
  });

  it("finds every keyword control fused at least as well as by keywords alone", () => {
    expect(Object.keys(keywordControls).length).toBeGreaterThanOrEqual(5);
    for (const [q, { keyword, hybrid }] of Object.entries(keywordControls)) {
      expect(keyword, q).toBeGreaterThan(0);
      expect(hybrid, q).toBeGreaterThanOrEqual(keyword);
    }
  });

  it("finds the paraphrases fused far better than by keywords alone", () => {
    const keyword = figures.keyword!.paraphrase;
    const fused = figures.hybrid!.paraphrase;
    console.log("guard paraphrases recall@10 / MRR@10: keywords", keyword, "fused", fused);
    expect(fused.recall).toBeGreaterThan(keyword.recall + 0.3);
    expect(fused.mrr).toBeGreaterThan(keyword.mrr + 0.2);
  });

  it("answers most everyday questions in the first five, fused", () => {
    expect(figures.hybrid!.everydayTop5).toBeGreaterThan(figures.keyword!.everydayTop5);
  });
});
