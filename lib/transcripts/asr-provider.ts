import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { authSecret } from "@/lib/auth/secret";
import { createAsrProvider, createAssemblyAiProvider, handleAssemblyAiWebhook, type AsrProvider } from "@/lib/asr";
import { errors } from "@/lib/http/errors";

const WEBHOOK_HEADER = "x-verbatim-webhook";

let cached: { provider: AsrProvider | null } | undefined;

/** For the operator, in every answer that needed speech recognition this server does not have. */
export const ASR_SETTINGS_HINT =
  "An operator turns it on with ASSEMBLYAI_API_KEY (AssemblyAI) or ASR_OPENAI_BASE_URL (an OpenAI-compatible Whisper server).";

/** Whether this server can transcribe files and caption-less videos (the Transcribe page says so up front). */
export function speechRecognitionAvailable(): boolean {
  return asrProvider() !== null;
}

/** The value AssemblyAI sends back in WEBHOOK_HEADER, derived from the auth secret. */
function webhookToken(): string {
  return createHmac("sha256", authSecret()).update("assemblyai-webhook").digest("base64url");
}

const requestTimeoutMs = (settings: ReturnType<typeof env>) =>
  settings.ASR_REQUEST_TIMEOUT_SECONDS === undefined ? undefined : settings.ASR_REQUEST_TIMEOUT_SECONDS * 1000;

/** The configured speech recognition (AssemblyAI, else an OpenAI-compatible server), or null. */
export function asrProvider(): AsrProvider | null {
  if (!cached) {
    const settings = env();
    const provider =
      settings.ASSEMBLYAI_API_KEY && settings.ASR_WEBHOOK_BASE_URL
        ? createAssemblyAiProvider({
            apiKey: settings.ASSEMBLYAI_API_KEY,
            baseUrl: settings.ASSEMBLYAI_BASE_URL,
            webhookUrl: new URL("/v1/webhooks/assemblyai", settings.ASR_WEBHOOK_BASE_URL).toString(),
            webhookAuthHeaderName: WEBHOOK_HEADER,
            webhookAuthHeaderValue: webhookToken(),
            requestTimeoutMs: requestTimeoutMs(settings),
          })
        : createAsrProvider({
            assemblyAiApiKey: settings.ASSEMBLYAI_API_KEY,
            assemblyAiBaseUrl: settings.ASSEMBLYAI_BASE_URL,
            openAiBaseUrl: settings.ASR_OPENAI_BASE_URL,
            openAiApiKey: settings.ASR_OPENAI_API_KEY,
            openAiModel: settings.ASR_OPENAI_MODEL,
            requestTimeoutMs: requestTimeoutMs(settings),
          });
    cached = { provider };
  }
  return cached.provider;
}

/**
 * POST /v1/webhooks/assemblyai: AssemblyAI says a transcript finished. Only wakes the waiting job,
 * which then asks AssemblyAI itself; the body is never trusted beyond the transcript id.
 */
export function receiveAssemblyAiWebhook(request: Request, body: unknown): { received: boolean } {
  const presented = Buffer.from(request.headers.get(WEBHOOK_HEADER) ?? "");
  const expected = Buffer.from(webhookToken());
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    throw errors.forbidden("This webhook did not come from our AssemblyAI account.");
  }
  return { received: handleAssemblyAiWebhook(body) !== null };
}
