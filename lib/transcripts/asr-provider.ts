import { withOperatorNote } from "@/lib/observability/failure-cause";
import { createHmac, timingSafeEqual } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { env } from "@/lib/env";
import { authSecret } from "@/lib/auth/secret";
import { createAsrProvider, createAssemblyAiProvider, handleAssemblyAiWebhook, type AsrProvider } from "@/lib/asr";
import { createLocalProvider } from "@/lib/asr/local";
import { ensureModel, LOCAL_MODELS } from "@/lib/asr/local-model";
import { localRuntime, type Accelerator } from "@/lib/asr/local-runtime";
import { errors } from "@/lib/http/errors";
import { appOutbound } from "@/lib/http/outbound/configured";
import { findExecutable } from "@/lib/process/media-tools";

const WEBHOOK_HEADER = "x-verbatim-webhook";

/** Which recogniser is on, with which model, and why none is (for /health and the dashboard). */
export interface AsrStatus {
  provider: "assemblyai" | "openai" | "local" | "off";
  model: string | null;
  /** Why it is off, when it is (or, for the local recogniser, why it does not use the GPU asked for). */
  reason: string | null;
  /** Where the local recogniser runs: cpu, metal, cuda or vulkan (ASR_LOCAL_GPU); null for the others. */
  accelerator?: Accelerator | null;
}

let cached: { provider: AsrProvider | null; status: AsrStatus } | undefined;

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

/** The active recogniser and model (asrProvider()'s choice). */
export function asrStatus(): AsrStatus {
  asrProvider();
  return cached!.status;
}

/** Children at once: one per 4 cores, at least 1; threads: the cores shared between them. */
function localSizing(concurrency: number | undefined): { concurrency: number; threads: number } {
  const cores = Math.max(1, os.availableParallelism());
  const slots = concurrency ?? Math.max(1, Math.floor(cores / 4));
  return { concurrency: slots, threads: Math.max(1, Math.min(8, Math.floor(cores / slots))) };
}

function localProvider(settings: ReturnType<typeof env>): { provider: AsrProvider | null; status: AsrStatus } {
  const runtime = localRuntime(settings.ASR_LOCAL_GPU);
  const operatorFile = settings.ASR_LOCAL_MODEL_PATH;
  const model = operatorFile
    ? path
        .basename(operatorFile)
        .replace(/^ggml-/, "")
        .replace(/\.bin$/, "")
    : settings.ASR_LOCAL_MODEL;
  if (!runtime.available) return { provider: null, status: { provider: "off", model: null, reason: runtime.reason } };
  if (!operatorFile && !LOCAL_MODELS[settings.ASR_LOCAL_MODEL]) {
    return {
      provider: null,
      status: {
        provider: "off",
        model: null,
        reason: `ASR_LOCAL_MODEL "${settings.ASR_LOCAL_MODEL}" is not one of ${Object.keys(LOCAL_MODELS).join(", ")} (or set ASR_LOCAL_MODEL_PATH)`,
      },
    };
  }
  const sizing = localSizing(settings.ASR_LOCAL_CONCURRENCY);
  const provider = createLocalProvider({
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
  return { provider, status: { provider: "local", model, reason: runtime.note, accelerator: runtime.accelerator } };
}

/** The value AssemblyAI sends back in WEBHOOK_HEADER, derived from the auth secret. */
function webhookToken(): string {
  return createHmac("sha256", authSecret()).update("assemblyai-webhook").digest("base64url");
}

const requestTimeoutMs = (settings: ReturnType<typeof env>) =>
  settings.ASR_REQUEST_TIMEOUT_SECONDS === undefined ? undefined : settings.ASR_REQUEST_TIMEOUT_SECONDS * 1000;

/** The configured speech recognition (ASR_PROVIDER; auto: AssemblyAI, else OpenAI-compatible, else local), or null. */
export function asrProvider(): AsrProvider | null {
  if (!cached) {
    const settings = env();
    const choice = settings.ASR_PROVIDER;
    const remote = choice === "auto" || choice === "assemblyai" || choice === "openai";
    const useAssemblyAi = Boolean(settings.ASSEMBLYAI_API_KEY) && (choice === "auto" || choice === "assemblyai");
    const useOpenAi =
      !useAssemblyAi && Boolean(settings.ASR_OPENAI_BASE_URL) && (choice === "auto" || choice === "openai");
    if (choice === "off") {
      cached = { provider: null, status: { provider: "off", model: null, reason: "ASR_PROVIDER=off" } };
      return null;
    }
    if (choice === "local" || (choice === "auto" && !useAssemblyAi && !useOpenAi)) {
      cached = localProvider(settings);
      return cached.provider;
    }
    if (remote && !useAssemblyAi && !useOpenAi) {
      const missing = choice === "assemblyai" ? "ASSEMBLYAI_API_KEY" : "ASR_OPENAI_BASE_URL";
      cached = {
        provider: null,
        status: { provider: "off", model: null, reason: `ASR_PROVIDER=${choice} but ${missing} is not set` },
      };
      return null;
    }
    const provider =
      useAssemblyAi && settings.ASR_WEBHOOK_BASE_URL
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
          });
    const status: AsrStatus = useAssemblyAi
      ? { provider: "assemblyai", model: null, reason: null }
      : { provider: "openai", model: settings.ASR_OPENAI_MODEL, reason: null };
    cached = { provider, status };
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
