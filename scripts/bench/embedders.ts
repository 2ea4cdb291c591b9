// What each embedder costs (`npm run bench -- embedders`): the judged corpus (the four longest real English caption
// tracks, test/fixtures/captions/judged-search.ts) stored as the app stores it in a fresh database, then every
// passage embedded and stored as the background job does it, by the default model and by a local sentence model of
// all-MiniLM-L6-v2's shape and size (./minilm-shaped.ts: its real weights cannot be fetched where benches run; what it
// costs is the real one's, what its vectors mean is nothing): ingest time per passage, bytes per passage stored, and
// what each adds to a process's resident memory, in a process of its own: idle with a query embedded (the vectors or
// graph the process keeps for queries), and at its peak while a batch of passages is embedded in the worker thread.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createMigratedTestDatabase } from "../../test/pg";
import { JUDGED_TRACKS, judgedTrackSegments } from "../../test/fixtures/captions/judged-search";
import { miniLmShapedOnnx, miniLmShapedTokenizer } from "./minilm-shaped";

const USER = "embedders-reader";
const QUERIES = ["the lone flattop that got away", "what cat box filler has to do with this", "funding founders"];

/** In a child process: RSS added idle after a query (the kept vectors or graph), and at the peak of a bulk batch. */
function residentGrowth(
  kind: "default" | "local",
  config: object,
): { idleMb: number; bulkPeakMb: number; queryMs: number } {
  const script = `
    const config = ${JSON.stringify(config)};
    const { readFileSync } = await import("node:fs");
    const texts = JSON.parse(readFileSync(config.textsFile, "utf8"));
    const lib = ${
      kind === "default"
        ? `await import(${JSON.stringify(path.resolve("lib/embeddings/default-model.ts"))});
           const query = (q) => lib.embedQuery(config.modelFile, q);
           const bulk = (t) => lib.embedTextsOffThread(config.modelFile, t);`
        : `await import(${JSON.stringify(path.resolve("lib/embeddings/local-model.ts"))});
           const query = (q) => lib.embedSentenceQuery(config.files, q);
           const bulk = (t) => lib.embedSentencesOffThread(config.files, t);`
    }
    globalThis.gc(); const before = process.memoryUsage().rss;
    for (const q of ${JSON.stringify(QUERIES)}) await query(q);
    const started = performance.now();
    for (let i = 0; i < 10; i++) for (const q of ${JSON.stringify(QUERIES)}) await query(q);
    const queryMs = (performance.now() - started) / (10 * ${QUERIES.length});
    globalThis.gc(); const idle = process.memoryUsage().rss;
    let peak = idle;
    const poll = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    await bulk(texts);
    clearInterval(poll);
    console.log(JSON.stringify({ idleMb: (idle - before) / 2 ** 20, bulkPeakMb: (peak - before) / 2 ** 20, queryMs }));`;
  // A file, not `-e`: the worker threads it starts inherit the process's flags, and `--input-type` is refused there.
  const file = path.join(tmpdir(), `bench-embedders-${kind}-${process.pid}.mts`);
  writeFileSync(file, script);
  let out: string;
  try {
    out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", file], { encoding: "utf8" });
  } finally {
    rmSync(file, { force: true });
  }
  return JSON.parse(out.trim().split("\n").at(-1)!) as { idleMb: number; bulkPeakMb: number; queryMs: number };
}

export async function benchEmbedders(): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  const dir = await mkdtemp(path.join(tmpdir(), "bench-embedders-"));
  process.env.DATABASE_URL = database.url;
  process.env.APP_URL ??= "https://verbatim.example";
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  const { getDb, closeDatabase } = await import("../../lib/db/client");
  const figures: Record<string, number> = {};
  try {
    const db = await getDb();
    const { storeTranscript } = await import("../../lib/transcripts/store-transcript");
    await db.user.create({ data: { id: USER, email: "embedders@bench.test" } });
    const words = new Set<string>();
    for (const [i, track] of JUDGED_TRACKS.entries()) {
      const segs = judgedTrackSegments(track);
      for (const s of segs)
        for (const w of s.text.toLowerCase().match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []) words.add(w);
      const videoId = `embedders${String(i).padStart(5, "0")}`;
      await storeTranscript(
        { platform: "youtube", videoId, lang: "en", origin: "captions" },
        {
          title: track.title,
          captionKind: track.kind,
          sourceUrl: `https://www.youtube.com/watch?v=${videoId}`,
          durationSeconds: Math.ceil(segs.at(-1)!.end),
          segments: segs as unknown as object[],
        },
      );
    }
    const { defaultModelFile, ensureModelFile } = await import("../../lib/embeddings/default-model");
    const passages = await import("../../lib/search/embed-passages");
    const { localModelFiles } = await import("../../lib/embeddings/sentence-files");
    const { fileEmbedder } = await import("../../lib/embeddings/kinds/default");
    const { localEmbedder } = await import("../../lib/embeddings/kinds/local");
    const [{ n }] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "SearchPassage"`);
    figures["judged corpus: passages"] = n;
    const texts = await db.$queryRaw<{ text: string }[]>`
      SELECT seg.text FROM "SearchPassage" p JOIN "Transcript" t ON t."id" = p."transcriptId"
      CROSS JOIN LATERAL verbatim_passage_segments(t."segments", p."segFrom", p."segTo") AS seg
      ORDER BY p."pid" DESC LIMIT 256`;
    const textsFile = path.join(dir, "texts.json");
    await writeFile(textsFile, JSON.stringify(texts.map((t) => t.text)));
    figures["judged corpus: mean words per passage"] =
      texts.reduce((sum, t) => sum + (t.text.match(/\S+/g)?.length ?? 0), 0) / texts.length;

    const bytesPerPassage = async () => {
      const [size] = await db.$queryRawUnsafe<{ bytes: number; rows: number }[]>(
        `SELECT pg_total_relation_size('"PassageEmbedding"')::float8 AS bytes, (SELECT count(*) FROM "PassageEmbedding")::int AS rows`,
      );
      return size!.bytes / size!.rows;
    };

    const modelFile = defaultModelFile(path.resolve(process.env.DATA_DIR ?? "data"));
    await ensureModelFile(modelFile);
    const wink = fileEmbedder("bench-default", modelFile);
    let started = performance.now();
    while ((await passages.embedMissingPassages(wink)).embedded > 0);
    figures["default: ingest time per passage (worker thread, stored) (ms)"] = (performance.now() - started) / n;
    await db.$executeRawUnsafe(`VACUUM FULL "PassageEmbedding"`);
    figures["default: bytes per passage stored (table, TOAST and index)"] = await bytesPerPassage();
    const defaultMemory = residentGrowth("default", { modelFile, textsFile });
    figures["default: resident memory added, idle after queries (MB)"] = defaultMemory.idleMb;
    figures["default: resident memory added at the peak of a 256-passage batch (MB)"] = defaultMemory.bulkPeakMb;
    figures["default: query embedding (ms)"] = defaultMemory.queryMs;

    const name = "minilm-shaped";
    const place = {
      name,
      dir: path.join(dir, name),
      baseUrl: "http://127.0.0.1:9",
      info: {
        repo: "bench/minilm-shaped",
        revision: "0".repeat(40),
        dims: 384,
        maxTokens: 256,
        model: { path: "onnx/model.onnx", file: "model.onnx", bytes: 0, sha256: "0".repeat(64) },
        tokenizer: { path: "tokenizer.json", file: "tokenizer.json", bytes: 0, sha256: "1".repeat(64) },
      },
    };
    const model = miniLmShapedOnnx();
    const tokenizer = miniLmShapedTokenizer(words);
    place.info.model.bytes = model.length;
    place.info.tokenizer.bytes = tokenizer.length;
    await mkdir(place.dir, { recursive: true });
    const files = localModelFiles(place);
    await writeFile(files.modelFile, model);
    await writeFile(files.tokenizerFile, tokenizer);
    figures["local (MiniLM-shaped): model file (MB)"] = model.length / 2 ** 20;
    const local = localEmbedder(place);
    started = performance.now();
    while ((await passages.embedMissingPassages(local)).embedded > 0);
    figures["local (MiniLM-shaped): ingest time per passage (worker thread, stored) (ms)"] =
      (performance.now() - started) / n;
    await db.$executeRawUnsafe(`VACUUM FULL "PassageEmbedding"`);
    figures["local (MiniLM-shaped): bytes per passage stored (table, TOAST and index)"] = await bytesPerPassage();
    const localMemory = residentGrowth("local", { files, textsFile });
    figures["local (MiniLM-shaped): resident memory added, idle after queries (MB)"] = localMemory.idleMb;
    figures["local (MiniLM-shaped): resident memory added at the peak of a 256-passage batch (MB)"] =
      localMemory.bulkPeakMb;
    figures["local (MiniLM-shaped): query embedding (ms)"] = localMemory.queryMs;
  } finally {
    await closeDatabase();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}
