// SEARCH_EMBEDDER=default: the offline word vectors npm installed and the vectors distilled beside them
// (../default-model.ts), made on first need.
import { stat } from "node:fs/promises";
import path from "node:path";
import {
  DEFAULT_EMBEDDER,
  defaultModelFile,
  distilledModelFile,
  embedQuery,
  embedTextsOffThread,
  ensureDistilledFile,
  ensureModelFile,
} from "../default-model";
import { DISTILLED_SHARE } from "../embed";
import type { Embedder, EmbedderKind } from "../embedder";
import { DEFAULT_MEANING_PROFILE, DISTILLED_MEANING_PROFILE } from "../meaning-profile";

const isFile = (file: string) =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

/** The default embedder: its compact word vectors at `file`, and the most frequent `distilledWords` distilled. */
export function fileEmbedder(model: string, file: string, distilledWords = 0): Embedder & { file: string } {
  const distilled = distilledWords > 0 ? distilledModelFile(file, distilledWords) : null;
  return {
    model,
    file,
    describe: `${DEFAULT_EMBEDDER.name} (offline word vectors${distilled ? `, ${distilledWords} distilled` : ""})`,
    ready: async () => (await isFile(file)) && (!distilled || (await isFile(distilled))),
    prepare: async () => {
      await ensureModelFile(file);
      if (distilled) await ensureDistilledFile(distilled, file, distilledWords);
    },
    embed: (texts) => embedTextsOffThread(file, texts, { distilledFile: distilled }),
    embedQuery: (text) => embedQuery(file, text, distilled),
    embedFew: (texts) => Promise.all(texts.map((text) => embedQuery(file, text, distilled))),
    profile: distilled ? DISTILLED_MEANING_PROFILE : DEFAULT_MEANING_PROFILE,
  };
}

/** The default embedder's identity: its vocabulary, its method and what is distilled beside it. */
export function defaultEmbedderModel(distilledWords: number): string {
  const words = `${DEFAULT_EMBEDDER.name}/${DEFAULT_EMBEDDER.words}/${DEFAULT_EMBEDDER.method}`;
  return distilledWords > 0
    ? `${words}+${DEFAULT_EMBEDDER.distilled.name}/${distilledWords}/share${DISTILLED_SHARE}`
    : words;
}

export const defaultKind: EmbedderKind = {
  fromSettings: (settings) =>
    fileEmbedder(
      defaultEmbedderModel(settings.SEARCH_DISTILLED_WORDS),
      defaultModelFile(path.resolve(settings.DATA_DIR)),
      settings.SEARCH_DISTILLED_WORDS,
    ),
  describe: (settings) =>
    `${DEFAULT_EMBEDDER.name} (offline word vectors${settings.SEARCH_DISTILLED_WORDS ? `, ${settings.SEARCH_DISTILLED_WORDS} distilled` : ""})`,
  problem: () => null,
};
