// SEARCH_EMBEDDER=static: a static model in Model2Vec's format in SEARCH_STATIC_MODEL_DIR (../static-model.ts).
import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Embedder, EmbedderKind } from "../embedder";
import { STATIC_MEANING_PROFILE } from "../meaning-profile";
import { STATIC_MODEL_FILES, staticModelOf } from "../static-model";

/**
 * A static model in `dir`, embedded here: a text costs a tokenisation and a few additions, a batch yields to the
 * event loop between texts. Its identity is its matrix file's name, size and time, so a replaced model embeds every
 * passage again.
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

export const staticKind: EmbedderKind = {
  fromSettings: (settings) =>
    settings.SEARCH_STATIC_MODEL_DIR ? staticEmbedder(path.resolve(settings.SEARCH_STATIC_MODEL_DIR)) : null,
  describe: (settings) => `a static model (Model2Vec format) in ${settings.SEARCH_STATIC_MODEL_DIR ?? "(no folder)"}`,
  problem: (settings) =>
    settings.SEARCH_STATIC_MODEL_DIR
      ? null
      : {
          found: "SEARCH_EMBEDDER=static without SEARCH_STATIC_MODEL_DIR",
          fix: "Set SEARCH_STATIC_MODEL_DIR to a folder holding a Model2Vec model (model.safetensors and tokenizer.json), or SEARCH_EMBEDDER=default.",
        },
};
