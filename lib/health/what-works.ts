import { isOperator } from "@/lib/auth/operators";
import { serverCapabilities, type ServerCapabilities } from "@/lib/health/capabilities";
import { setupProblemsNow } from "@/lib/health/setup-check-results";
import type { SetupLine } from "@/lib/health/setup-checks";
import { asrStatus, speechRecognitionAvailable, type AsrStatus } from "@/lib/transcripts/asr-provider";

/** What the dashboard's "What works on this server" is drawn from (lib/browser/what-works.ts). */
export interface WhatWorksView {
  capabilities: ServerCapabilities;
  /** A recogniser is configured at all. */
  speechRecognition: boolean;
  /** Which one, in words ("whisper.cpp on this server, model base-q5_1"). */
  recogniser: string | null;
  /** An operator's page only: the failing setup checks (null while the first round runs). */
  problems?: readonly SetupLine[] | null;
}

const GPU_NAMES = { metal: "Metal GPU", cuda: "CUDA GPU", vulkan: "Vulkan GPU" } as const;

/** The active recogniser in words, for the first-run panel. */
export function recogniserLabel(status: AsrStatus): string | null {
  if (status.provider === "local") {
    const gpu = status.accelerator && status.accelerator !== "cpu" ? ` (${GPU_NAMES[status.accelerator]})` : "";
    return `whisper.cpp on this server${gpu}, model ${status.model}`;
  }
  if (status.provider === "assemblyai") return "AssemblyAI";
  if (status.provider === "openai") return `an OpenAI-compatible server, model ${status.model}`;
  return null;
}

/**
 * The dashboard's "What works on this server" for a signed-in user (null: nobody is): what they can do, and for
 * an operator (lib/auth/operators.ts) the failing checks too. The page sends this object to the browser whole,
 * so a non-operator's never holds a check's finding (hosts, ports, errors). `failing` is for tests: the checks'
 * failing lines, null while they run (default: the last results, setupProblemsNow).
 */
export async function whatWorksFor(
  userId: string | null,
  failing: readonly SetupLine[] | null = setupProblemsNow(),
): Promise<WhatWorksView> {
  const speechRecognition = speechRecognitionAvailable();
  const view: WhatWorksView = {
    capabilities: serverCapabilities(failing, speechRecognition),
    speechRecognition,
    recogniser: recogniserLabel(asrStatus()),
  };
  return userId && (await isOperator(userId)) ? { ...view, problems: failing } : view;
}
