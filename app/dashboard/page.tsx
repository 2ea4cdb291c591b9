import { cache, Suspense } from "react";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { TranscribePanel } from "@/components/dashboard/transcribe-panel";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { createTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { speechRecognitionAvailable } from "@/lib/transcripts/asr-provider";
import { whatWorksFor } from "@/lib/health/what-works";
import { getTranscript } from "@/lib/transcripts/read";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";
import { storedTranscriptForLink } from "@/lib/transcripts/stored-for-link";
import { transcriptDeps } from "@/lib/transcripts/deps";
import { storedTranscriptHref } from "@/lib/browser/transcripts";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** `?transcript=<id>` is rendered with the page (the text is the largest paint), not fetched after it. */
const initialTranscript = cache(
  async (userId: string | null, id: string | string[] | undefined): Promise<TranscriptResponse | null> => {
    if (typeof id !== "string" || !id.trim() || !userId) return null;
    // Anything else (not in the history, a bad id) is left to the client, which shows the API's answer.
    return getTranscript(userId, id.trim(), { format: "json" }).catch(() => null);
  },
);

/** The tab names the transcript read here, as it does the page. */
export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const found = await dashboardWorkspace();
  const transcript = await initialTranscript(found?.workspace.accountId ?? null, (await searchParams).transcript);
  return { title: transcript ? transcript.title || transcript.video_id || "Transcript" : "Transcribe" };
}

export default async function DashboardHome({ searchParams }: { searchParams: SearchParams }) {
  const found = await dashboardWorkspace();
  const userId = found?.workspace.accountId ?? null;
  const needed = found ? missingRole(found.workspace, createTranscriptEndpoint) : null;
  const query = await searchParams;
  // A link to a transcript (`?url=…&lang=…`) asks for it again, which a viewer may not: it opens what the library
  // holds by a read instead.
  if (userId && needed && typeof query.url === "string" && !query.job) {
    const lang = typeof query.lang === "string" && query.lang.trim() ? query.lang.trim() : "en";
    const stored = await storedTranscriptForLink(userId, query.url, lang, transcriptDeps());
    if (stored) redirect(storedTranscriptHref(stored));
  }
  const [transcript, whatWorks] = await Promise.all([
    initialTranscript(userId, query.transcript),
    whatWorksFor(userId),
  ]);
  return (
    <section className="flex min-w-0 flex-col gap-6">
      {/* A viewer reads transcripts here (a history link's ?transcript=) but cannot start one: the notice is for the
          Transcribe page, not for a transcript opened to be read. */}
      {found && needed && query.transcript === undefined ? (
        <RoleNotice workspace={found.workspace} needed={needed} what="Transcribing" />
      ) : null}
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
