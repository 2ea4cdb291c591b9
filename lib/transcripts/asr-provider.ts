import { withOperatorNote } from "@/lib/observability/failure-cause";
import { createHmac, timingSafeEqual } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { env } from "@/lib/env";
import { authSecret } from "@/lib/auth/secret";
import { createAsrProvider, createAssemblyAiProvider, handleAssemblyAiWebhook, type AsrProvider } from "@/lib/asr";
import { createLocalProvider } from "@/lib/asr/local";
import { ensureModel } from "@/lib/asr/local-model";
import type { LocalRuntime } from "@/lib/asr/local-runtime";
import { errors } from "@/lib/http/errors";
import { appOutbound } from "@/lib/http/outbound/configured";
import { findExecutable } from "@/lib/process/media-tools";
import { asrChoice } from "@/lib/transcripts/asr-status";

export { asrStatus, type AsrStatus } from "@/lib/transcripts/asr-status";

const WEBHOOK_HEADER = "x-verbatim-webhook";

let cached: { provider: AsrProvider | null } | undefined;

/** For the operator (the log line), whenever a request needed speech recognition this server does not have. */
export const ASR_SETTINGS_HINT =
  "An operator turns it on with ASSEMBLYAI_API_KEY (AssemblyAI), ASR_OPENAI_BASE_URL (an OpenAI-compatible Whisper server) or ASR_PROVIDER=local (whisper.cpp on this machine).";

/** A "speech recognition is off" error for the user, with the settings that turn it on for the operator. */
export function asrNotConfigured<E extends Error>(error: E): E {
  return withOperatorNote(error, {
    cause: "asr_not_configured",
    setting: "ASR_PROVIDER, ASSEMBLYAI_API_KEY or ASR_OPENAI_BASE_URL",
    detail: ASR_SETTINGS_HINT,
  });
}

/** Whether this server can transcribe files and caption-less videos (the Transcribe page says so up front). */
export function speechRecognitionAvailable(): boolean {
  return asrProvider() !== null;
}

/** Children at once: one per 4 cores, at least 1; threads: the cores shared between them. */
function localSizing(concurrency: number | undefined): { concurrency: number; threads: number } {
  const cores = Math.max(1, os.availableParallelism());
  const slots = concurrency ?? Math.max(1, Math.floor(cores / 4));
  return { concurrency: slots, threads: Math.max(1, Math.min(8, Math.floor(cores / slots))) };
}

function localProvider(
  settings: ReturnType<typeof env>,
  runtime: Extract<LocalRuntime, { available: true }>,
  model: string,
): AsrProvider {
  const operatorFile = settings.ASR_LOCAL_MODEL_PATH;
  const sizing = localSizing(settings.ASR_LOCAL_CONCURRENCY);
  return createLocalProvider({
    modelName: model,
    bindingPath: runtime.bindingPath,
    useGpu: runtime.useGpu,
    ...sizing,
    ffmpegPath: findExecutable("ffmpeg") ?? undefined,
    resolveModel: async ({ signal, onProgress }) =>
      operatorFile
        ? path.resolve(operatorFile)
        : ensureModel({
            name: settings.ASR_LOCAL_MODEL,
            dir: path.resolve(settings.DATA_DIR, "models"),
            baseUrl: settings.ASR_LOCAL_MODEL_BASE_URL,
            outbound: appOutbound(),
            signal,
            onProgress,
          }),
  });
}

/** The value AssemblyAI sends back in WEBHOOK_HEADER, derived from the auth secret. */
function webhookToken(): string {
  return createHmac("sha256", authSecret()).update("assemblyai-webhook").digest("base64url");
}

const requestTimeoutMs = (settings: ReturnType<typeof env>) =>
  settings.ASR_REQUEST_TIMEOUT_SECONDS === undefined ? undefined : settings.ASR_REQUEST_TIMEOUT_SECONDS * 1000;

/** The configured speech recognition (asrChoice: ASR_PROVIDER; auto: AssemblyAI, else OpenAI-compatible, else local), or null. */
export function asrProvider(): AsrProvider | null {
  cached ??= { provider: createProvider(env()) };
  return cached.provider;
}

function createProvider(settings: ReturnType<typeof env>): AsrProvider | null {
  const choice = asrChoice(settings);
  if (choice.engine === null) return null;
  if (choice.engine === "local") return localProvider(settings, choice.runtime, choice.model);
  const useAssemblyAi = choice.engine === "assemblyai";
  return useAssemblyAi && settings.ASR_WEBHOOK_BASE_URL
    ? createAssemblyAiProvider({
        apiKey: settings.ASSEMBLYAI_API_KEY!,
        baseUrl: settings.ASSEMBLYAI_BASE_URL,
        webhookUrl: new URL("/v1/webhooks/assemblyai", settings.ASR_WEBHOOK_BASE_URL).toString(),
        webhookAuthHeaderName: WEBHOOK_HEADER,
        webhookAuthHeaderValue: webhookToken(),
        requestTimeoutMs: requestTimeoutMs(settings),
      })
    : createAsrProvider({
        assemblyAiApiKey: useAssemblyAi ? settings.ASSEMBLYAI_API_KEY : undefined,
        assemblyAiBaseUrl: settings.ASSEMBLYAI_BASE_URL,
        openAiBaseUrl: settings.ASR_OPENAI_BASE_URL,
        openAiApiKey: settings.ASR_OPENAI_API_KEY,
        openAiModel: settings.ASR_OPENAI_MODEL,
        requestTimeoutMs: requestTimeoutMs(settings),
        retryDelayMs: settings.ASR_RETRY_DELAY_MS,
      });
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
