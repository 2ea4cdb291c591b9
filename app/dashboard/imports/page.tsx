import type { Metadata } from "next";
import { FollowsPanel } from "@/components/dashboard/follows-panel";
import { ImportsPanel } from "@/components/dashboard/imports-panel";
import { env } from "@/lib/env";
import { speechRecognitionAvailable } from "@/lib/transcripts/asr-provider";

export const metadata: Metadata = { title: "Imports" };

export default function ImportsPage() {
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Imports</h1>
      <p className="text-sm text-stone-600">
        Transcribe a whole podcast or playlist: every episode lands in your history. Episodes you already have are
        skipped.
      </p>
      <ImportsPanel speechRecognition={speechRecognitionAvailable()} />
      <h2 className="text-xl font-semibold">Follows</h2>
      <FollowsPanel maxBackfill={env().FOLLOW_MAX_BACKFILL} />
    </section>
  );
}
