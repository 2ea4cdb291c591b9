// Every passage's meaning stored beside it ("PassageEmbedding", by pid): the passages that have no vector of the
// embedder in use, newest first, a batch at a time, embedded (the default's in a worker thread) and written. What is missing is the
// job's state, so it resumes wherever it stopped (a restart, a crash, a new transcript or correction stored
// meanwhile: their passages are new, so missing) and two processes at once only repeat a batch (one writes it). A
// passage none of whose words has a vector gets an empty one, so it is not read again.
import { stat } from "node:fs/promises";
import path from "node:path";
import { getDb } from "@/lib/db/client";
import { embedRemote, type RemoteEmbedderOptions } from "@/lib/embeddings/openai-compatible";
import {
  DEFAULT_EMBEDDER,
  defaultModelFile,
  embedQuery,
  embedTextsOffThread,
  ensureModelFile,
} from "@/lib/embeddings/default-model";
import { embedSentenceQuery, embedSentencesOffThread } from "@/lib/embeddings/local-model";
import {
  DEFAULT_MEANING_PROFILE,
  SENTENCE_MEANING_PROFILE,
  STATIC_MEANING_PROFILE,
  type MeaningProfile,
} from "@/lib/embeddings/meaning-profile";
import { STATIC_MODEL_FILES, staticModelOf } from "@/lib/embeddings/static-model";
import { statSync } from "node:fs";
import { SENTENCE_MODELS, sentenceModelIdentity } from "@/lib/embeddings/sentence-catalog";
import { env } from "@/lib/env";
import type { Outbound } from "@/lib/http/outbound";
import { appOutbound } from "@/lib/http/outbound/configured";
import {
  ensureLocalModel,
  localModelFiles,
  localModelPresent,
  type LocalModelPlace,
} from "@/lib/search/local-model-files";
import { ensureVectorIndex, vectorColumn, vectorText } from "@/lib/search/vector-index";

export const EMBED_BATCH = 256;

export interface Embedder {
  /** Stored with each vector: vectors of different embedders are never compared. */
  model: string;
  /** Said in doctor: which embedder and where. */
  describe: string;
  /** Whether it can embed now, without waiting on a conversion (the default's file is made by the background job). */
  ready(): Promise<boolean>;
  /** Made ready if it can be (the default's file converted), else throws. */
  prepare(): Promise<void>;
  /** Each text's unit vector (null: nothing to embed), off the event loop or on another machine. */
  embed(texts: string[]): Promise<(Float32Array | null)[]>;
  /** A query's unit vector. */
  embedQuery(text: string): Promise<Float32Array | null>;
  /** A few short texts' vectors (a page's lines, to find the one that answers): here, as a query is. */
  embedFew(texts: string[]): Promise<(Float32Array | null)[]>;
  /** Its closeness scale: the floor of an answer, the words of closeness, its weight in fusion. */
  profile: MeaningProfile;
}

/** The default embedder, its compact word vectors at `file`. */
export function fileEmbedder(model: string, file: string): Embedder & { file: string } {
  return {
    model,
    file,
    describe: `${DEFAULT_EMBEDDER.name} (offline word vectors)`,
    ready: () =>
      stat(file).then(
        (s) => s.isFile(),
        () => false,
      ),
    prepare: async () => void (await ensureModelFile(file)),
    embed: (texts) => embedTextsOffThread(file, texts),
    embedQuery: (text) => embedQuery(file, text),
    embedFew: (texts) => Promise.all(texts.map((text) => embedQuery(file, text))),
    profile: DEFAULT_MEANING_PROFILE,
  };
}

/** An OpenAI-compatible `/v1/embeddings` server (lib/embeddings/openai-compatible.ts). */
export function remoteEmbedder(options: RemoteEmbedderOptions): Embedder {
  return {
    model: `openai-compatible/${options.model}`,
    describe: `${options.model} at ${new URL(options.baseUrl).host} (OpenAI-compatible /v1/embeddings)`,
    ready: async () => true,
    prepare: async () => undefined,
    embed: (texts) => embedRemote(options, texts),
    embedQuery: async (text) => (await embedRemote(options, [text]))[0] ?? null,
    embedFew: (texts) => embedRemote(options, texts),
    profile: SENTENCE_MEANING_PROFILE,
  };
}

/** A local sentence model (lib/embeddings/local-model.ts), its files fetched on first need through `outbound`. */
export function localEmbedder(place: LocalModelPlace, outbound: () => Outbound = appOutbound): Embedder {
  const files = localModelFiles(place);
  return {
    model: sentenceModelIdentity(place.name, place.info),
    describe: `${place.name} (local sentence model, ${place.info.dims} dimensions)`,
    ready: () => localModelPresent(place),
    prepare: async () => void (await ensureLocalModel(place, outbound())),
    embed: (texts) => embedSentencesOffThread(files, texts),
    embedQuery: (text) => embedSentenceQuery(files, text),
    embedFew: async (texts) => {
      const out: (Float32Array | null)[] = [];
      for (const text of texts) out.push(await embedSentenceQuery(files, text));
      return out;
    },
    profile: SENTENCE_MEANING_PROFILE,
  };
}

/**
 * A static model in Model2Vec's format in `dir` (lib/embeddings/static-model.ts), embedded here: a text costs a
 * tokenisation and a few additions, a batch yields to the event loop between texts. Its identity is its matrix
 * file's name, size and time, so a replaced model embeds every passage again.
 */
export function staticEmbedder(dir: string): Embedder {
  const matrix = path.join(dir, STATIC_MODEL_FILES.matrix);
  let identity: string;
  try {
    const s = statSync(matrix);
    identity = `${s.size}-${Math.floor(s.mtimeMs)}`;
  } catch {
    identity = "missing";
  }
  const embedOne = async (text: string) => (await staticModelOf(dir)).embed(text);
  return {
    model: `model2vec/${path.basename(dir)}/${identity}`,
    describe: `${path.basename(dir)} (static model, Model2Vec format, in ${dir})`,
    ready: () =>
      stat(matrix).then(
        (s) => s.isFile(),
        () => false,
      ),
    prepare: async () => void (await staticModelOf(dir)),
    embed: async (texts) => {
      const out: (Float32Array | null)[] = [];
      for (const text of texts) {
        out.push(await embedOne(text));
        await new Promise((resolve) => setImmediate(resolve));
      }
      return out;
    },
    embedQuery: embedOne,
    embedFew: (texts) => Promise.all(texts.map(embedOne)),
    profile: STATIC_MEANING_PROFILE,
  };
}

/** The embedder the settings choose, or null (SEARCH_EMBEDDER=off, openai without its base URL, local with an unknown model). */
export function configuredEmbedder(): Embedder | null {
  const settings = env();
  if (settings.SEARCH_EMBEDDER === "off") return null;
  if (settings.SEARCH_EMBEDDER === "static")
    return settings.SEARCH_STATIC_MODEL_DIR ? staticEmbedder(path.resolve(settings.SEARCH_STATIC_MODEL_DIR)) : null;
  if (settings.SEARCH_EMBEDDER === "openai")
    return settings.SEARCH_EMBEDDINGS_BASE_URL
      ? remoteEmbedder({
          baseUrl: settings.SEARCH_EMBEDDINGS_BASE_URL,
          apiKey: settings.SEARCH_EMBEDDINGS_API_KEY,
          model: settings.SEARCH_EMBEDDINGS_MODEL,
        })
      : null;
  if (settings.SEARCH_EMBEDDER === "local") {
    const info = SENTENCE_MODELS[settings.SEARCH_LOCAL_MODEL];
    return info
      ? localEmbedder({
          name: settings.SEARCH_LOCAL_MODEL,
          info,
          dir: path.resolve(settings.DATA_DIR, "models", settings.SEARCH_LOCAL_MODEL),
          baseUrl: settings.SEARCH_LOCAL_MODEL_BASE_URL,
        })
      : null;
  }
  return fileEmbedder(
    `${DEFAULT_EMBEDDER.name}/${DEFAULT_EMBEDDER.words}/${DEFAULT_EMBEDDER.method}`,
    defaultModelFile(path.resolve(settings.DATA_DIR)),
  );
}

/** Passages with their text (as the index read it: the correction's segments for a correction's passage). */
const MISSING = `
  SELECT p."pid", array_to_string(seg.texts, ' ') AS text
  FROM "SearchPassage" p
  JOIN "Transcript" t ON t."id" = p."transcriptId"
  LEFT JOIN "TranscriptRevision" rev ON rev."id" = p."revisionId"
  CROSS JOIN LATERAL (
    SELECT array_agg(s.text ORDER BY s.idx) AS texts
    FROM verbatim_segments(coalesce(rev."segments", t."segments")) AS s WHERE s.idx BETWEEN p."segFrom" AND p."segTo"
  ) AS seg
  WHERE NOT EXISTS (SELECT 1 FROM "PassageEmbedding" e WHERE e."pid" = p."pid" AND e."model" = $1)
    AND p."pid" > $3 AND p."pid" < $4
  ORDER BY p."pid" DESC
  LIMIT $2`;

/** Pids between which to look (exclusive): a backfill goes down from where its last batch ended. */
export interface PidRange {
  above?: bigint;
  below?: bigint;
}

/**
 * Embeds at most `batch` passages within `range` that have no vector of `embedder`, newest first: how many, and the
 * lowest pid among them (where the next batch goes on below).
 */
export async function embedMissingPassages(
  embedder: Embedder,
  batch = EMBED_BATCH,
  range: PidRange = {},
): Promise<{ embedded: number; lowest: bigint | null }> {
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<{ pid: bigint; text: string | null }[]>(
    MISSING,
    embedder.model,
    batch,
    range.above ?? -1n,
    range.below ?? 2n ** 62n,
  );
  if (rows.length === 0) return { embedded: 0, lowest: null };
  await embedder.prepare();
  const vectors = await embedder.embed(rows.map((r) => r.text ?? ""));
  const quantised = vectors.map((v) => (v ? quantise(v) : { bytes: Buffer.alloc(0), scale: 0 }));
  const params = [embedder.model, rows.map((r) => r.pid), quantised.map((q) => q.bytes), quantised.map((q) => q.scale)];
  // Only passages still there (one deleted meanwhile took its vector's row with it, or never gets one).
  if (await vectorColumn(db)) {
    for (const dims of new Set(vectors.flatMap((v) => (v && v.length > 0 ? [v.length] : []))))
      await ensureVectorIndex(db, dims);
    await db.$executeRawUnsafe(
      `INSERT INTO "PassageEmbedding" ("pid", "model", "vector", "scale", "embedding")
       SELECT e.pid, $1, e.vector, e.scale, e.embedding::halfvec
       FROM unnest($2::bigint[], $3::bytea[], $4::real[], $5::text[]) AS e(pid, vector, scale, embedding)
       WHERE EXISTS (SELECT 1 FROM "SearchPassage" p WHERE p."pid" = e.pid)
       ON CONFLICT ("pid") DO UPDATE SET "model" = EXCLUDED."model", "vector" = EXCLUDED."vector",
         "scale" = EXCLUDED."scale", "embedding" = EXCLUDED."embedding"`,
      ...params,
      vectors.map(vectorText),
    );
  } else
    await db.$executeRawUnsafe(
      `INSERT INTO "PassageEmbedding" ("pid", "model", "vector", "scale")
       SELECT e.pid, $1, e.vector, e.scale FROM unnest($2::bigint[], $3::bytea[], $4::real[]) AS e(pid, vector, scale)
       WHERE EXISTS (SELECT 1 FROM "SearchPassage" p WHERE p."pid" = e.pid)
       ON CONFLICT ("pid") DO UPDATE SET "model" = EXCLUDED."model", "vector" = EXCLUDED."vector", "scale" = EXCLUDED."scale"`,
      ...params,
    );
  return { embedded: rows.length, lowest: rows.at(-1)!.pid };
}

/** The highest pid of any passage (0 when none): what is newer than it was stored after. */
export async function highestPid(): Promise<bigint> {
  const db = await getDb();
  const [row] = await db.$queryRawUnsafe<{ pid: bigint | null }[]>(`SELECT max("pid") AS pid FROM "SearchPassage"`);
  return row?.pid ?? 0n;
}

/** A unit vector as int8 × scale (the stored form: dims + 4 bytes). */
export function quantise(vector: Float32Array): { bytes: Buffer; scale: number } {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const scale = max / 127 || 1;
  const bytes = Buffer.alloc(vector.length);
  vector.forEach((x, d) => bytes.writeInt8(Math.round(x / scale), d));
  return { bytes, scale };
}

/** A stored vector read back (null: the passage has no meaning to compare). */
export function dequantise(bytes: Uint8Array, scale: number): Float32Array | null {
  if (bytes.length === 0) return null;
  const out = new Float32Array(bytes.length);
  const signed = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let d = 0; d < out.length; d++) out[d] = signed[d]! * scale;
  return out;
}

/** How far the embedding of every passage has come: what an operator sees (doctor, /health). */
export async function embeddingProgress(embedder: Embedder): Promise<{ passages: number; embedded: number }> {
  const db = await getDb();
  const [row] = await db.$queryRawUnsafe<{ passages: number; embedded: number }[]>(
    `SELECT (SELECT count(*) FROM "SearchPassage")::int AS passages,
            (SELECT count(*) FROM "PassageEmbedding" WHERE "model" = $1)::int AS embedded`,
    embedder.model,
  );
  return row!;
}
