// One database kind of the heavy-saves bench (heavy-saves.ts): prints its figures as one JSON line.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, linkSync, copyFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMigratedTestDatabase } from "../../test/pg";
import { gritSegments } from "../../test/publishing";
import { benchReplacing, benchUsers, type BenchContext } from "./heavy-saves-replace";

const kind = process.argv[2] === "embedded" ? "embedded" : "postgres";
const SEGMENTS = 2160;
const SEGMENT_SECONDS = 10;
/** The most text one segment may hold is 5,000 characters; pieces are packed up to this. */
const SEGMENT_CHARS = 4900;
const READ_GOAL_MS = 1000;
/**
 * The default embedder's files (its converted word vectors and distilled words: minutes to make), made on the first
 * run and kept here: each run's data folder links them, so its background embedding starts as a server's does.
 */
const MODELS = path.join(os.tmpdir(), "verbatim-bench-heavy-saves-models");
/** HEAVY_SAVES_EMBEDDING=off: without the background embedding of the passages a server runs beside the saves. */
const EMBEDDING = process.env.HEAVY_SAVES_EMBEDDING !== "off";

/** The default embedder's files in `dataDir`'s models folder, made in MODELS first if need be. */
async function linkModels(dataDir: string): Promise<void> {
  const { DEFAULT_EMBEDDER, defaultModelFile, distilledModelFile, ensureDistilledFile, ensureModelFile } =
    await import("../../lib/embeddings/default-model");
  const modelFile = defaultModelFile(MODELS);
  await ensureModelFile(modelFile);
  await ensureDistilledFile(
    distilledModelFile(modelFile, DEFAULT_EMBEDDER.distilled.words),
    modelFile,
    DEFAULT_EMBEDDER.distilled.words,
  );
  const target = path.join(dataDir, "models");
  mkdirSync(target, { recursive: true });
  for (const name of readdirSync(path.dirname(modelFile))) {
    if (/\.(part|partial|tmp)$/.test(name) || existsSync(path.join(target, name))) continue;
    try {
      linkSync(path.join(path.dirname(modelFile), name), path.join(target, name));
    } catch {
      copyFileSync(path.join(path.dirname(modelFile), name), path.join(target, name));
    }
  }
}

/** A distinct lowercase pseudo-word for each `i` (base 26, at least three letters), after `prefix`. */
const pseudo = (prefix: string, i: number) =>
  prefix + (i + 676).toString(26).replace(/[0-9]/g, (d) => "qrstuvwxyz"[+d]!);

/** Pieces packed into segments of SEGMENT_SECONDS, joined by `sep`, each at most SEGMENT_CHARS characters. */
function pack(pieces: Iterable<string>, sep = " ", timed = false, speakers = 0) {
  const segments: { start: number; end: number; text: string; speaker?: string; words?: unknown[] }[] = [];
  let current: string[] = [];
  let chars = 0;
  const flush = () => {
    if (current.length === 0) return;
    const i = segments.length;
    const start = i * SEGMENT_SECONDS;
    const end = start + SEGMENT_SECONDS - 0.5;
    const step = (end - start) / current.length;
    segments.push({
      start,
      end,
      text: current.join(sep),
      ...(speakers > 0 ? { speaker: `${"Speaker ".padEnd(90, "x")} ${String(i % speakers).padStart(4, "0")}` } : {}),
      ...(timed
        ? {
            words: current.map((text, w) => ({
              start: Math.round((start + w * step) * 1000) / 1000,
              end: Math.round((start + (w + 1) * step) * 1000) / 1000,
              text,
            })),
          }
        : {}),
    });
    current = [];
    chars = 0;
  };
  for (const piece of pieces) {
    if (chars + piece.length + sep.length > SEGMENT_CHARS) flush();
    current.push(piece);
    chars += piece.length + sep.length;
  }
  flush();
  return segments;
}

function* count(n: number, make: (i: number) => string) {
  for (let i = 0; i < n; i++) yield make(i);
}

/** `n` parts joined `sep` in runs of 40 (a compound of many words), the runs separated by spaces. */
function* joined(n: number, prefix: string, sep: string) {
  for (let i = 0; i < n; i += 40)
    yield Array.from({ length: Math.min(40, n - i) }, (_, j) => pseudo(prefix, i + j).slice(0, 3)).join(sep);
}

/** `n` CJK characters in runs of 4,900 (every adjacent pair a bigram of the index), mostly distinct pairs. */
function* cjk(n: number, seed: number) {
  for (let i = 0; i < n; i += SEGMENT_CHARS - 1)
    yield Array.from({ length: Math.min(SEGMENT_CHARS - 1, n - i) }, (_, j) =>
      String.fromCharCode(0x4e00 + (((i + j) * 7919 + seed) % 20000)),
    ).join("");
}

/** Words of everyday speech: a vocabulary of 20,000, drawn unevenly (a few words often, most rarely). */
const speech = (prefix: string) => (i: number) => pseudo(prefix, Math.floor(20000 * ((i * 0.618034) % 1) ** 3));

const combining = (prefix: string) => (i: number) => [...pseudo(prefix, i)].map((c) => `${c}\u0301`).join("");

type Shape = (n: number) => ReturnType<typeof pack>;
const SHAPES: Record<string, { probe: number; shape: Shape }> = {
  // 40 parts and their compound: 41 tokens.
  hyphen: { probe: 288_000, shape: (n) => pack(joined(Math.floor((n * 40) / 41), "h", "-")) },
  comma: { probe: 288_000, shape: (n) => pack(joined(n, "c", ",")) },
  cjk: { probe: 300_000, shape: (n) => pack(cjk(n, 1), "") },
  combining: { probe: 190_000, shape: (n) => pack(count(n, combining("m"))) },
  timed: { probe: 190_000, shape: (n) => pack(count(n, speech("t")), " ", true) },
  speakers: { probe: 190_000, shape: (n) => pack(count(n, speech("s")), " ", false, 200) },
  maximum: { probe: 70_000, shape: (n) => pack(count(n, speech("x"))) },
};

async function main() {
  const database = kind === "postgres" ? await createMigratedTestDatabase() : null;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-heavy-saves-"));
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  process.env.RATE_LIMIT_MULTIPLIER = "1000000";
  // The lowest a minute's tokens may be: the users shape's refusals without indexing many heavy corrections.
  process.env.EDIT_SAVE_TOKENS_PER_MINUTE = "100000";
  process.env.DATA_DIR = dataDir;
  if (database) process.env.DATABASE_URL = database.url;
  else delete process.env.DATABASE_URL;
  process.env.SEARCH_EMBEDDER = EMBEDDING ? "default" : "off";
  if (EMBEDDING) await linkModels(dataDir);
  const { getDb, closeDatabase, dbKind, pingEmbedded } = await import("../../lib/db/client");
  const { saveEdit, restoreOriginal } = await import("../../lib/edits/revisions");
  const { deleteTranscription } = await import("../../lib/transcripts/delete-transcription");
  const { readTranscript } = await import("../../lib/transcripts/read");
  const { RequestValidationError } = await import("../../lib/http/validation");
  const validate = await import("../../lib/edits/validate");
  const { revisionIndexIdle, indexRevisionStep } = (await import("../../lib/edits/revision-index").catch(
    () => ({}),
  )) as {
    revisionIndexIdle?: () => Promise<void>;
    indexRevisionStep?: (id: string, stepMs: number) => Promise<string>;
  };
  const bound = (validate as { MAX_INDEX_TOKENS?: number }).MAX_INDEX_TOKENS;
  const db = await getDb();
  const out: Record<string, number> = {};
  // As a server: every passage's vector written in the background (lib/app/schedule-embedding.ts), a correction's
  // passages once they are cut. `embedded()`: once every passage has its vector (or 2 minutes).
  const embedder = EMBEDDING ? (await import("../../lib/embeddings/registry")).configuredEmbedder() : null;
  if (embedder) {
    await embedder.prepare();
    (await import("../../lib/app/schedule-embedding")).scheduleEmbedding();
  }
  const { embeddingProgress } = await import("../../lib/search/embed-passages");
  const embedded = async () => {
    const until = performance.now() + 120_000;
    while (embedder && performance.now() < until) {
      const { passages, embedded: done } = await embeddingProgress(embedder);
      if (done >= passages) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  // /health's database check (lib/health/check-health.ts): on the embedded database "busy" past its 100 ms turn.
  const embeddedDb = (await dbKind()) === "pglite";
  const health = async (): Promise<"ok" | "busy"> => {
    if (embeddedDb) return (await pingEmbedded(100)) === "busy" ? "busy" : "ok";
    await db.$queryRaw`SELECT 1`;
    return "ok";
  };
  try {
    const [author, reader] = await Promise.all(
      ["author", "reader"].map((name) => db.user.create({ data: { email: `${name}-heavy@example.test`, name } })),
    );
    const duration = SEGMENTS * SEGMENT_SECONDS;
    const original = Array.from({ length: SEGMENTS }, (_, i) => ({
      start: i * SEGMENT_SECONDS,
      end: i * SEGMENT_SECONDS + SEGMENT_SECONDS - 0.5,
      text: `word${i}`,
    }));
    const seed = async (userId: string, videoId: string, segments: object[], seconds: number) => {
      const t = await db.transcript.create({
        data: {
          platform: "youtube",
          videoId,
          lang: "en",
          origin: "captions",
          captionKind: "manual",
          title: `Video ${videoId}`,
          sourceUrl: `https://www.youtube.com/watch?v=${videoId}`,
          durationSeconds: seconds,
          segments,
        },
      });
      await db.transcription.create({
        data: {
          userId,
          platform: "youtube",
          videoId,
          lang: "en",
          origin: "captions",
          transcriptId: t.id,
          state: "done",
          durationSeconds: seconds,
          totalSeconds: seconds,
        },
      });
      return t.id;
    };
    const longId = await seed(author!.id, "heavysaves1", original, duration);
    const readId = await seed(reader!.id, "heavysaves2", gritSegments(), 400);
    const only = process.env.HEAVY_SAVES_SHAPES?.split(",");
    for (const [name, { probe, shape }] of Object.entries(SHAPES)) {
      if (only && !only.includes(name)) continue;
      const sizes = bound && bound < probe ? [probe, bound - 1000] : [probe];
      for (const size of sizes) {
        const segments = shape(size);
        const label = `${kind} ${name} ${size === probe ? "probe" : "at bound"} (${size.toLocaleString("en-US")})`;
        let saving = true;
        let worst = 0;
        let reads = 0;
        const readerLoop = (async () => {
          while (saving) {
            const t0 = performance.now();
            await readTranscript(reader!.id, readId);
            worst = Math.max(worst, performance.now() - t0);
            reads++;
          }
        })();
        const t0 = performance.now();
        let status = 200;
        try {
          await saveEdit(author!.id, longId, { segments } as never);
        } catch (error) {
          status = error instanceof RequestValidationError ? 422 : ((error as { status?: number }).status ?? 500);
          if (status === 500) console.error(label, error);
        }
        const saveMs = performance.now() - t0;
        // What the save left to the background (lib/edits/revision-index.ts: the rest of its indexing, the
        // replaced version's passages) holds the database too: reads go on until it is done.
        if (revisionIndexIdle) await revisionIndexIdle();
        const idleMs = performance.now() - t0;
        saving = false;
        await readerLoop;
        out[`${label}: indexed and replaced removed ms`] = idleMs;
        out[`${label}: save ms`] = saveMs;
        out[`${label}: answer`] = status;
        out[`${label}: worst read ms (goal ≤ ${READ_GOAL_MS})`] = worst;
        out[`${label}: reads`] = reads;
        console.error(label, Math.round(saveMs), status, Math.round(worst), Math.round(idleMs));
      }
    }
    const ctx: BenchContext = {
      kind,
      save: async (userId, transcriptId, segments) => {
        await saveEdit(userId, transcriptId, { segments } as never);
      },
      idle: async () => {
        if (revisionIndexIdle) await revisionIndexIdle();
        await embedded();
      },
      read: () => readTranscript(reader!.id, readId),
      health,
      out,
    };
    if (!only || only.includes("replacing")) {
      const replacer = await db.user.create({ data: { email: "replacer-heavy@example.test", name: "replacer" } });
      await benchReplacing(ctx, replacer.id, await seed(replacer.id, "heavyrepl01", original, duration));
    }
    if (!only || only.includes("users")) {
      const users = [];
      for (let u = 0; u < 3; u++) {
        const user = await db.user.create({ data: { email: `user${u}-heavy@example.test`, name: `user${u}` } });
        users.push({ userId: user.id, transcriptId: await seed(user.id, `heavyuser0${u}`, original, duration) });
      }
      // The real limits: a user's saves past a minute's tokens are refused (429), and should be at once.
      const { RateLimits } = await import("../../lib/http/rate-limits");
      const limits = globalThis as { verbatimRateLimits?: Promise<unknown> };
      const lifted = limits.verbatimRateLimits;
      limits.verbatimRateLimits = Promise.resolve(new RateLimits({ multiplier: 1 }));
      try {
        await benchUsers(ctx, users);
      } finally {
        limits.verbatimRateLimits = lifted;
      }
    }
    // Removing a served correction of the intended maximum: restoring the original, and deleting the history
    // entry that holds it (which deletes the author's corrections), each while another user reads.
    if (!only || only.includes("removals")) {
      const size = (bound ?? 100_000) - 1000;
      const restore = () => restoreOriginal(author!.id, longId, "json");
      // A newer copy of the served correction, indexed but for its last passage: what a restore meets when the
      // author saved again a moment before (two corrections' passages and postings at once).
      const newerAllButIndexed = async () => {
        if (!indexRevisionStep) return;
        await db.$executeRaw`
          INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes", "createdAt")
          SELECT 'bench-newer', "userId", "transcriptId", "segments", "sizeBytes", "createdAt" + INTERVAL '1 second'
          FROM "TranscriptRevision" WHERE "userId" = ${author!.id} AND "indexedAt" IS NOT NULL`;
        for (;;) {
          await indexRevisionStep("bench-newer", 0);
          const [left] = await db.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM "RevisionPassage" WHERE "revisionId" = 'bench-newer' AND "body" IS NOT NULL`;
          if (left!.n <= 1) break;
        }
      };
      const removals: [string, () => Promise<unknown>, (() => Promise<void>)?][] = [
        ["restore original", restore],
        ["restore original with a newer one all but indexed", restore, newerAllButIndexed],
        [
          "delete history entry",
          async () => {
            const entry = await db.transcription.findFirstOrThrow({
              where: { userId: author!.id, transcriptId: longId },
            });
            await deleteTranscription(author!.id, entry.id);
          },
        ],
      ];
      // The everyday words of the intended maximum, and CJK text (nearly every bigram a term: the most postings).
      for (const shapeName of ["maximum", "cjk"])
        for (const [name, remove, setup] of removals) {
          await saveEdit(author!.id, longId, { segments: SHAPES[shapeName]!.shape(size) } as never);
          if (revisionIndexIdle) await revisionIndexIdle();
          await setup?.();
          const label = `${kind} ${name} of a served correction, ${shapeName} (${size.toLocaleString("en-US")})`;
          const [held] = await db.$queryRaw<{ passages: number; postings: number; served: number }[]>`
          SELECT (SELECT count(*)::int FROM "RevisionPassage") AS passages,
                 (SELECT count(*)::int FROM "SearchPosting" sp JOIN "RevisionPassage" rp ON rp."pid" = sp."pid") AS postings,
                 (SELECT count(*)::int FROM "TranscriptRevision" WHERE "indexedAt" IS NOT NULL) AS served`;
          out[`${label}: passages`] = held!.passages;
          out[`${label}: postings`] = held!.postings;
          out[`${label}: served corrections`] = held!.served;
          let removing = true;
          let worst = 0;
          let reads = 0;
          const readerLoop = (async () => {
            while (removing) {
              const t0 = performance.now();
              await readTranscript(reader!.id, readId);
              worst = Math.max(worst, performance.now() - t0);
              reads++;
            }
          })();
          const t0 = performance.now();
          await remove();
          const answerMs = performance.now() - t0;
          if (revisionIndexIdle) await revisionIndexIdle();
          const idleMs = performance.now() - t0;
          removing = false;
          await readerLoop;
          out[`${label}: answer ms`] = answerMs;
          out[`${label}: passages removed ms`] = idleMs;
          out[`${label}: worst read ms (goal ≤ ${READ_GOAL_MS})`] = worst;
          out[`${label}: reads`] = reads;
          console.error(label, Math.round(answerMs), Math.round(worst), Math.round(idleMs));
          // The next shape's save needs the transcript in the author's history again.
          if (!(await db.transcription.findFirst({ where: { userId: author!.id, transcriptId: longId } })))
            await db.transcription.create({
              data: {
                userId: author!.id,
                platform: "youtube",
                videoId: "heavysaves1",
                lang: "en",
                origin: "captions",
                transcriptId: longId,
                state: "done",
                durationSeconds: duration,
                totalSeconds: duration,
              },
            });
        }
    }
  } finally {
    await closeDatabase();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(out));
}

await main();
process.exit(0);
