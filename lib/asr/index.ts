import { createAssemblyAiProvider } from "./assemblyai";
import { createOpenAiCompatibleProvider } from "./openai-compatible";
import type { AsrProvider } from "./types";

export { createAssemblyAiProvider, handleAssemblyAiWebhook, type AssemblyAiOptions } from "./assemblyai";
export { createOpenAiCompatibleProvider, type OpenAiCompatibleOptions } from "./openai-compatible";
export { segmentWords, joinWords, type SegmentWordsOptions, type TimedText } from "./segment-words";
export {
  AsrError,
  type AsrErrorCode,
  type AsrProvider,
  type AsrResult,
  type AsrTranscribeOptions,
  type Word,
} from "./types";

export interface AsrSettings {
  assemblyAiApiKey?: string;
  assemblyAiBaseUrl?: string;
  openAiBaseUrl?: string;
  openAiApiKey?: string;
  /** Default "whisper-1" (OpenAI's model with word timestamps). */
  openAiModel?: string;
  /** Per-request timeout; unset: each backend's own default. */
  requestTimeoutMs?: number;
  /** First wait before a failed request to an OpenAI-compatible server is tried again; unset: its default. */
  retryDelayMs?: number;
}

/** AssemblyAI when its key is set, else an OpenAI-compatible server when its base URL is set, else null. */
export function createAsrProvider(settings: AsrSettings): AsrProvider | null {
  if (settings.assemblyAiApiKey) {
    return createAssemblyAiProvider({
      apiKey: settings.assemblyAiApiKey,
      baseUrl: settings.assemblyAiBaseUrl || undefined,
      requestTimeoutMs: settings.requestTimeoutMs,
    });
  }
  if (settings.openAiBaseUrl) {
    return createOpenAiCompatibleProvider({
      baseUrl: settings.openAiBaseUrl,
      apiKey: settings.openAiApiKey || undefined,
      model: settings.openAiModel || "whisper-1",
      requestTimeoutMs: settings.requestTimeoutMs,
      retryDelayMs: settings.retryDelayMs,
    });
  }
  return null;
}
