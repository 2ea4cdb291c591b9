import { Suspense } from "react";
import type { Metadata } from "next";
import { TranscribePanel } from "@/components/dashboard/transcribe-panel";
import { auth } from "@/lib/auth/nextauth";
import { asrStatus, speechRecognitionAvailable, type AsrStatus } from "@/lib/transcripts/asr-provider";
import { setupProblemsNow } from "@/lib/health/setup-check-results";
import { getTranscript } from "@/lib/transcripts/get-transcript";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";

export const metadata: Metadata = { title: "Transcribe" };

/** `?transcript=<id>` is rendered with the page (the text is the largest paint), not fetched after it. */
async function initialTranscript(id: string | string[] | undefined): Promise<TranscriptResponse | null> {
  if (typeof id !== "string" || !id.trim()) return null;
  const session = await auth();
  if (!session?.user?.id) return null;
  // Anything else (not in the history, a bad id) is left to the client, which shows the API's answer.
  return getTranscript(session.user.id, id.trim(), "json").catch(() => null);
}

const GPU_NAMES = { metal: "Metal GPU", cuda: "CUDA GPU", vulkan: "Vulkan GPU" } as const;

/** The active recogniser in words, for the first-run panel. */
function recogniserLabel(status: AsrStatus): string | null {
  if (status.provider === "local") {
    const gpu = status.accelerator && status.accelerator !== "cpu" ? ` (${GPU_NAMES[status.accelerator]})` : "";
    return `whisper.cpp on this server${gpu}, model ${status.model}`;
  }
  if (status.provider === "assemblyai") return "AssemblyAI";
  if (status.provider === "openai") return `an OpenAI-compatible server, model ${status.model}`;
  return null;
}

export default async function DashboardHome({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const transcript = await initialTranscript((await searchParams).transcript);
  return (
    <section className="flex min-w-0 flex-col gap-6">
      {/* The panel reads ?url=&lang=&job= with useSearchParams, which needs a Suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-stone-600">Loading…</p>}>
        <TranscribePanel
          speechRecognition={speechRecognitionAvailable()}
          recogniser={recogniserLabel(asrStatus())}
          setupProblems={setupProblemsNow()}
          initialTranscript={transcript}
        />
      </Suspense>
    </section>
  );
}
