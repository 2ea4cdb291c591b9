import { callRoute } from "@/test/request";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultModelFile } from "@/lib/embeddings/default-model";
import { encodeWordVectors } from "@/lib/embeddings/word-vectors";
import type { SearchResponse } from "@/lib/search/schemas";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { gritTrack, storeTranscript } from "@/test/search";

const COPIES = 400;
/** The deadline scaled down with the library (the default is 2,000 ms at 100,000 passages). */
const DEADLINE_MS = 250;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let dir: string;
let publicSearch: typeof import("@/app/v1/public/search/route").GET;
let librarySearch: typeof import("@/app/v1/me/search/route").GET;
let headers: Record<string, string>;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  process.env.SEARCH_TIMEOUT_MS = "20000";
  // Search by meaning on, with made-up word vectors of 4 dimensions (no distilled ones).
  dir = await mkdtemp(path.join(tmpdir(), "search-deadline-"));
  process.env.DATA_DIR = dir;
  process.env.SEARCH_EMBEDDER = "default";
  process.env.SEARCH_DISTILLED_WORDS = "0";
  const file = defaultModelFile(dir);
  await mkdir(path.dirname(file), { recursive: true });
  // Every word of the talk has a vector, so every question is searched by meaning as with the real vectors.
  const words = [...new Set(gritTrack().flatMap((s) => s.text.toLowerCase().match(/[a-z]+/g) ?? []))];
  await writeFile(file, encodeWordVectors(words.map((word, i) => ({ word, vector: [1, i % 7, 2, i % 5] })), 4));
  ctx = await useTestDatabase();
  publicSearch = (await import("@/app/v1/public/search/route")).GET;
  librarySearch = (await import("@/app/v1/me/search/route")).GET;
  const { configuredEmbedder } = await import("@/lib/embeddings/registry");
  const caller = await createCaller(ctx.db);
  headers = caller.headers;
  const { transcript } = await storeTranscript(ctx.db, { segments: gritTrack(), lang: "en", title: "Grit" });
  // The copies, each in the caller's library and published; the app's triggers cut and post their passages.
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
     SELECT 'g-' || i, 'youtube', lpad(i::text, 11, 'g'), 'en', 'captions', 'Grit ' || i,
            'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'g'), t."segments"
     FROM "Transcript" t, generate_series(1, ${COPIES}) AS i WHERE t."id" = $1`,
    transcript.id,
  );
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "updatedAt")
     SELECT 'gh-' || i, $1, 'youtube', lpad(i::text, 11, 'g'), 'en', 'captions', 'g-' || i, 'done', now()
     FROM generate_series(1, ${COPIES}) AS i`,
    caller.userId,
  );
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
     SELECT 'gp-' || i, 'grit-' || i, $1, 'g-' || i, now(), now() FROM generate_series(1, ${COPIES}) AS i`,
    caller.userId,
  );
  // Every passage's vector, made up from its id (4 bytes, int8 × scale): what is nearest does not matter here.
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "PassageEmbedding" ("pid", "model", "vector", "scale")
     SELECT p."pid", $1, decode(lpad(to_hex(abs(hashint8(p."pid")) % 4294967296), 8, '0'), 'hex'), 0.01
     FROM "TranscriptPassage" p`,
    configuredEmbedder()!.model,
  );
  await ctx.db.$executeRawUnsafe(`ANALYZE`);
  // The embedder's file is read on the first search by meaning, once a process: not a search's own cost.
  await configuredEmbedder()!.embedQuery("grit");
});
afterAll(async () => {
  await ctx?.teardown();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const SHAPES: [string, Record<string, string>][] = [
  ["ordinary", { q: "psychologist" }],
  ["ordinary2", { q: "parallelogram" }],
  ["frequent", { q: "grit" }],
  ["frequent2", { q: "kid" }],
  ["page50", { q: "grit", cursor: Buffer.from("o:980").toString("base64url") }],
  ["prefix", { q: "gr", prefix: "true" }],
  ["phrase", { q: '"I came to the conclusion that what we need in education is a much better understanding"' }],
  ["phrase-common", { q: '"kid grit school year work learn like need even study ask student build teacher talent"' }],
];
it("ratios", async () => {
  const RUNS = Number(process.env.RUNS ?? 7);
  for (const mode of (process.env.MODES ?? "hybrid,keyword").split(",")) {
    const times = new Map<string, number[]>();
    const timesOld = new Map<string, number[]>();
    for (let run = -1; run < RUNS; run++)
      for (const old of [false, true])
      for (const [label, params] of SHAPES) {
        process.env.OLD_HELD = old ? "1" : "0";
        process.env.OLD_CONJ = old ? "1" : "0";
        const t = performance.now();
        const res = await callRoute(publicSearch, `/v1/public/search?${new URLSearchParams({ ...params, mode, limit: "20" })}`, {});
        const ms = performance.now() - t;
        if (res.status !== 200) console.log(label, res.status, res.text.slice(0, 100));
        const into = old ? timesOld : times;
        if (run >= 0) into.set(label, [...(into.get(label) ?? []), ms]);
      }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const [name, t] of [["new", times], ["old", timesOld]] as const) {
      const base = med(t.get("ordinary")!);
      console.log(`RATIO ${mode} ${name}: ` + [...t].map(([l, xs]) => `${l} ${med(xs).toFixed(0)}ms ${(med(xs) / base).toFixed(2)}x`).join(" | "));
    }
  }
});
