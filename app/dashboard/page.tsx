import { Suspense } from "react";
import type { Metadata } from "next";
import { TranscribePanel } from "@/components/dashboard/transcribe-panel";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { createTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { speechRecognitionAvailable } from "@/lib/transcripts/asr-provider";
import { whatWorksFor } from "@/lib/health/what-works";
import { getTranscript } from "@/lib/transcripts/read";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";

export const metadata: Metadata = { title: "Transcribe" };

/** `?transcript=<id>` is rendered with the page (the text is the largest paint), not fetched after it. */
async function initialTranscript(
  userId: string | null,
  id: string | string[] | undefined,
): Promise<TranscriptResponse | null> {
  if (typeof id !== "string" || !id.trim() || !userId) return null;
  // Anything else (not in the history, a bad id) is left to the client, which shows the API's answer.
  return getTranscript(userId, id.trim(), { format: "json" }).catch(() => null);
}

export default async function DashboardHome({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const found = await dashboardWorkspace();
  const userId = found?.workspace.accountId ?? null;
  const needed = found ? missingRole(found.workspace, createTranscriptEndpoint) : null;
  const [transcript, whatWorks] = await Promise.all([
    initialTranscript(userId, (await searchParams).transcript),
    whatWorksFor(userId),
  ]);
  return (
    <section className="flex min-w-0 flex-col gap-6">
      {/* A viewer reads transcripts here (a history link's ?transcript=) but cannot start one. */}
      {found && needed ? <RoleNotice workspace={found.workspace} needed={needed} what="Transcribing" /> : null}
      {/* The panel reads ?url=&lang=&job= with useSearchParams, which needs a Suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-stone-600">Loading…</p>}>
        <TranscribePanel
          speechRecognition={speechRecognitionAvailable()}
          whatWorks={whatWorks}
          initialTranscript={transcript}
        />
      </Suspense>
    </section>
  );
}
