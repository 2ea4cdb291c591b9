// What search asks of an embedder (the contract every kind in ./kinds fulfils), and what the settings say of one.
import type { Env } from "@/lib/env";
import type { MeaningProfile } from "./meaning-profile";

export interface Embedder {
  /** Stored with each vector: vectors of different embedders are never compared. */
  model: string;
  /** Said in doctor: which embedder and where. */
  describe: string;
  /** Whether it can embed now, without waiting on a conversion or a download. */
  ready(): Promise<boolean>;
  /** Made ready if it can be (the default's file converted, a local model's files fetched), else throws. */
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

/** The settings an embedder is chosen and made from. */
export type EmbedderSettings = Pick<
  Env,
  | "DATA_DIR"
  | "SEARCH_EMBEDDER"
  | "SEARCH_DISTILLED_WORDS"
  | "SEARCH_STATIC_MODEL_DIR"
  | "SEARCH_LOCAL_MODEL"
  | "SEARCH_LOCAL_MODEL_BASE_URL"
  | "SEARCH_EMBEDDINGS_BASE_URL"
  | "SEARCH_EMBEDDINGS_API_KEY"
  | "SEARCH_EMBEDDINGS_MODEL"
>;

/** What the settings lack for their kind of embedder, as doctor says it. */
export interface EmbedderProblem {
  found: string;
  fix: string;
}

/** One kind of embedder (a value of SEARCH_EMBEDDER): a module of ./kinds and its entry in the registry. */
export interface EmbedderKind {
  /** The embedder the settings make, or null when they lack something (`problem` says what) or choose none. */
  fromSettings(settings: EmbedderSettings): Embedder | null;
  /** The kind in words, as doctor says it when there is no embedder to describe itself. */
  describe(settings: EmbedderSettings): string;
  /** What the settings lack for it (null: nothing). */
  problem(settings: EmbedderSettings): EmbedderProblem | null;
}
