// The kinds of embedder, one entry per value of SEARCH_EMBEDDER (each its module in ./kinds), and the one the
// settings choose: what search asks for when it needs vectors. A new kind is its module and its line here (and
// its value in lib/env.ts).
import { env } from "@/lib/env";
import type { Embedder, EmbedderKind, EmbedderSettings } from "./embedder";
import { defaultKind } from "./kinds/default";
import { localKind } from "./kinds/local";
import { openaiKind } from "./kinds/openai";
import { staticKind } from "./kinds/static";
import type { SecondStage, SecondStageKind, SecondStageSettings } from "./second-stage";
import { useLiteKind } from "./second-stages/use-lite";

const offKind: EmbedderKind = {
  fromSettings: () => null,
  describe: () => "off (SEARCH_EMBEDDER=off): keyword search only",
  problem: () => null,
};

export const EMBEDDER_KINDS: Readonly<Record<EmbedderSettings["SEARCH_EMBEDDER"], EmbedderKind>> = {
  default: defaultKind,
  static: staticKind,
  local: localKind,
  openai: openaiKind,
  off: offKind,
};

/** The kind the settings choose. */
export const embedderKind = (settings: EmbedderSettings): EmbedderKind => EMBEDDER_KINDS[settings.SEARCH_EMBEDDER];

/** The embedder the settings make, or null (off, or the settings lack something: the kind's `problem` says what). */
export const embedderFromSettings = (settings: EmbedderSettings): Embedder | null =>
  embedderKind(settings).fromSettings(settings);

/** The embedder this server's settings choose, or null. */
export const configuredEmbedder = (): Embedder | null => embedderFromSettings(env());

/** The kinds of second stage, one entry per value of SEARCH_SECOND_STAGE (each its module in ./second-stages). */
export const SECOND_STAGE_KINDS: Readonly<Record<SecondStageSettings["SEARCH_SECOND_STAGE"], SecondStageKind>> = {
  "use-lite": useLiteKind,
  off: { fromSettings: () => null },
};

/** The second stage this server's settings choose (null: off, or its files are not installed). */
export const configuredSecondStage = (): SecondStage | null => {
  const settings = env();
  return SECOND_STAGE_KINDS[settings.SEARCH_SECOND_STAGE].fromSettings(settings);
};
