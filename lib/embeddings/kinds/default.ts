// SEARCH_EMBEDDER=default: the offline word vectors npm installed (../default-model.ts), converted on first need.
import { stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_EMBEDDER, defaultModelFile, embedQuery, embedTextsOffThread, ensureModelFile } from "../default-model";
import type { Embedder, EmbedderKind } from "../embedder";
import { DEFAULT_MEANING_PROFILE } from "../meaning-profile";

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

export const defaultKind: EmbedderKind = {
  fromSettings: (settings) =>
    fileEmbedder(
      `${DEFAULT_EMBEDDER.name}/${DEFAULT_EMBEDDER.words}/${DEFAULT_EMBEDDER.method}`,
      defaultModelFile(path.resolve(settings.DATA_DIR)),
    ),
  describe: () => `${DEFAULT_EMBEDDER.name} (offline word vectors)`,
  problem: () => null,
};
