// Which recogniser this server uses, with which model, or why none: worked out from the settings alone, apart from
// building the recogniser (asr-provider.ts loads the AssemblyAI SDK and the outbound stack), so /health and the
// dashboard name it without loading them.
import path from "node:path";
import { env } from "@/lib/env";
import { LOCAL_MODELS } from "@/lib/asr/model-catalog";
import { localRuntime, type Accelerator, type LocalRuntime } from "@/lib/asr/local-runtime";

/** Which recogniser is on, with which model, and why none is (for /health and the dashboard). */
export interface AsrStatus {
  provider: "assemblyai" | "openai" | "local" | "off";
  model: string | null;
  /** Why it is off, when it is (or, for the local recogniser, why it does not use the GPU asked for). */
  reason: string | null;
  /** Where the local recogniser runs: cpu, metal, cuda or vulkan (ASR_LOCAL_GPU); null for the others. */
  accelerator?: Accelerator | null;
}

export type AsrChoice = { status: AsrStatus } & (
  | { engine: null }
  | { engine: "assemblyai" | "openai" }
  | { engine: "local"; runtime: Extract<LocalRuntime, { available: true }>; model: string }
);

/** ASR_PROVIDER's choice; auto: AssemblyAI, else an OpenAI-compatible server, else local. */
export function asrChoice(settings: ReturnType<typeof env>): AsrChoice {
  const choice = settings.ASR_PROVIDER;
  const remote = choice === "auto" || choice === "assemblyai" || choice === "openai";
  const useAssemblyAi = Boolean(settings.ASSEMBLYAI_API_KEY) && (choice === "auto" || choice === "assemblyai");
  const useOpenAi =
    !useAssemblyAi && Boolean(settings.ASR_OPENAI_BASE_URL) && (choice === "auto" || choice === "openai");
  const off = (reason: string): AsrChoice => ({ engine: null, status: { provider: "off", model: null, reason } });
  if (choice === "off") return off("ASR_PROVIDER=off");
  if (choice === "local" || (choice === "auto" && !useAssemblyAi && !useOpenAi)) return localChoice(settings);
  if (remote && !useAssemblyAi && !useOpenAi) {
    const missing = choice === "assemblyai" ? "ASSEMBLYAI_API_KEY" : "ASR_OPENAI_BASE_URL";
    return off(`ASR_PROVIDER=${choice} but ${missing} is not set`);
  }
  return useAssemblyAi
    ? { engine: "assemblyai", status: { provider: "assemblyai", model: null, reason: null } }
    : { engine: "openai", status: { provider: "openai", model: settings.ASR_OPENAI_MODEL, reason: null } };
}

function localChoice(settings: ReturnType<typeof env>): AsrChoice {
  const runtime = localRuntime(settings.ASR_LOCAL_GPU);
  const operatorFile = settings.ASR_LOCAL_MODEL_PATH;
  const model = operatorFile
    ? path
        .basename(operatorFile)
        .replace(/^ggml-/, "")
        .replace(/\.bin$/, "")
    : settings.ASR_LOCAL_MODEL;
  if (!runtime.available) return { engine: null, status: { provider: "off", model: null, reason: runtime.reason } };
  if (!operatorFile && !LOCAL_MODELS[settings.ASR_LOCAL_MODEL]) {
    return {
      engine: null,
      status: {
        provider: "off",
        model: null,
        reason: `ASR_LOCAL_MODEL "${settings.ASR_LOCAL_MODEL}" is not one of ${Object.keys(LOCAL_MODELS).join(", ")} (or set ASR_LOCAL_MODEL_PATH)`,
      },
    };
  }
  return {
    engine: "local",
    runtime,
    model,
    status: { provider: "local", model, reason: runtime.note, accelerator: runtime.accelerator },
  };
}

let cached: AsrStatus | undefined;

/** The active recogniser and model (the one asrProvider() builds). */
export function asrStatus(): AsrStatus {
  cached ??= asrChoice(env()).status;
  return cached;
}
