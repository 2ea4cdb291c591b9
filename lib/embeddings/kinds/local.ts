// SEARCH_EMBEDDER=local: a sentence model of the pinned catalogue (../sentence-catalog.ts) run here by onnxruntime
// (../local-model.ts), its files fetched on first need (../sentence-files.ts).
import path from "node:path";
import type { Outbound } from "@/lib/http/outbound";
import { appOutbound } from "@/lib/http/outbound/configured";
import type { Embedder, EmbedderKind, EmbedderSettings } from "../embedder";
import { embedSentenceQuery, embedSentencesOffThread } from "../local-model";
import { SENTENCE_MEANING_PROFILE } from "../meaning-profile";
import { SENTENCE_MODELS, sentenceModelIdentity } from "../sentence-catalog";
import { ensureLocalModel, localModelFiles, localModelPresent, type LocalModelPlace } from "../sentence-files";

/** A local sentence model, its files fetched on first need through `outbound`. */
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

/** Where the settings' sentence model is kept and fetched from (null: the catalogue has no such model). */
export function localModelPlace(settings: EmbedderSettings): LocalModelPlace | null {
  const info = SENTENCE_MODELS[settings.SEARCH_LOCAL_MODEL];
  return info
    ? {
        name: settings.SEARCH_LOCAL_MODEL,
        info,
        dir: path.resolve(settings.DATA_DIR, "models", settings.SEARCH_LOCAL_MODEL),
        baseUrl: settings.SEARCH_LOCAL_MODEL_BASE_URL,
      }
    : null;
}

export const localKind: EmbedderKind = {
  fromSettings: (settings) => {
    const place = localModelPlace(settings);
    return place ? localEmbedder(place) : null;
  },
  describe: (settings) => `${settings.SEARCH_LOCAL_MODEL} (local sentence model)`,
  problem: (settings) =>
    SENTENCE_MODELS[settings.SEARCH_LOCAL_MODEL]
      ? null
      : {
          found: `SEARCH_LOCAL_MODEL "${settings.SEARCH_LOCAL_MODEL}" is not a known local sentence model`,
          fix: `Set SEARCH_LOCAL_MODEL to one of ${Object.keys(SENTENCE_MODELS).join(", ")}, or SEARCH_EMBEDDER=default.`,
        },
};
