// SEARCH_EMBEDDER=openai: an OpenAI-compatible `/v1/embeddings` server (../openai-compatible.ts).
import type { Embedder, EmbedderKind } from "../embedder";
import { SENTENCE_MEANING_PROFILE } from "../meaning-profile";
import { embedRemote, type RemoteEmbedderOptions } from "../openai-compatible";

export function remoteEmbedder(options: RemoteEmbedderOptions): Embedder {
  return {
    model: `openai-compatible/${options.model}`,
    describe: `${options.model} at ${new URL(options.baseUrl).host} (OpenAI-compatible /v1/embeddings)`,
    ready: async () => true,
    prepare: async () => undefined,
    embed: (texts) => embedRemote(options, texts),
    embedQuery: async (text) => (await embedRemote(options, [text]))[0] ?? null,
    embedFew: (texts) => embedRemote(options, texts),
    profile: SENTENCE_MEANING_PROFILE,
  };
}

export const openaiKind: EmbedderKind = {
  fromSettings: (settings) =>
    settings.SEARCH_EMBEDDINGS_BASE_URL
      ? remoteEmbedder({
          baseUrl: settings.SEARCH_EMBEDDINGS_BASE_URL,
          apiKey: settings.SEARCH_EMBEDDINGS_API_KEY,
          model: settings.SEARCH_EMBEDDINGS_MODEL,
        })
      : null,
  describe: (settings) => `${settings.SEARCH_EMBEDDINGS_MODEL} (OpenAI-compatible /v1/embeddings)`,
  problem: (settings) =>
    settings.SEARCH_EMBEDDINGS_BASE_URL
      ? null
      : {
          found: "SEARCH_EMBEDDER=openai without SEARCH_EMBEDDINGS_BASE_URL",
          fix: "Set SEARCH_EMBEDDINGS_BASE_URL to an OpenAI-compatible /v1/embeddings server, or SEARCH_EMBEDDER=default.",
        },
};
