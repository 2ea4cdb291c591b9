// What search by meaning's second stage asks of an encoder (lib/search/second-stage.ts): passages read whole in the
// background, a query's vector, and its closeness scale. A kind of second stage is a module of ./second-stages and
// its line in the registry (registry.ts SECOND_STAGE_KINDS), as an embedder's is.
import type { Env } from "@/lib/env";

/** Where an encoder's cosines say an answer begins and a close one: chosen on the tuning corpus (`npm run eval`). */
export interface SecondStageScale {
  /** Its floor: where its closeness scale begins (what is below is loose at best). */
  floor: number;
  /** At or above it a match is as close as the first stage's "close". */
  close: number;
}

export interface SecondStageAnswer extends SecondStageScale {
  /**
   * A question is answered when its best candidates' closeness by both stages (lib/search/rerank.ts
   * closenessOfBest: each stage's best on its own scale, added) is at least this; below it, "nothing close".
   */
  answer: number;
}

export interface SecondStage {
  /** Stored with each vector: vectors of different encoders are never compared. */
  model: string;
  describe: string;
  /** Whether it can encode here (its files are installed). */
  ready(): Promise<boolean>;
  /** Passages' unit vectors, behind any query waiting (the background upgrade's batches). */
  embedPassages(texts: string[]): Promise<Float32Array[]>;
  /** A query's unit vector, ahead of the background's batches; null when not at hand within `waitMs`. */
  embedQuery(text: string, waitMs: number): Promise<Float32Array | null>;
  /** Whether its model is loaded now (a query would not wait for it to be read). */
  loaded(): boolean;
  /** Its model let go now (memory given back); the next request loads it again. */
  release(): void;
  scale: SecondStageAnswer;
}

export type SecondStageSettings = Pick<Env, "DATA_DIR" | "SEARCH_SECOND_STAGE">;

export interface SecondStageKind {
  fromSettings(settings: SecondStageSettings): SecondStage | null;
}
