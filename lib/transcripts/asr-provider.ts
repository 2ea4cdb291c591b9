import { env } from "@/lib/env";
import { createAsrProvider, type AsrProvider } from "@/lib/asr";

let cached: { provider: AsrProvider | null } | undefined;

/** The configured speech recognition (AssemblyAI, else an OpenAI-compatible server), or null. */
export function asrProvider(): AsrProvider | null {
  if (!cached) {
    const settings = env();
    cached = {
      provider: createAsrProvider({
        assemblyAiApiKey: settings.ASSEMBLYAI_API_KEY,
        assemblyAiBaseUrl: settings.ASSEMBLYAI_BASE_URL,
        openAiBaseUrl: settings.ASR_OPENAI_BASE_URL,
        openAiApiKey: settings.ASR_OPENAI_API_KEY,
        openAiModel: settings.ASR_OPENAI_MODEL,
      }),
    };
  }
  return cached.provider;
}
