import { Suspense } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { TranscribePanel } from "@/components/dashboard/transcribe-panel";
import { speechRecognitionAvailable } from "@/lib/transcripts/asr-provider";

export const metadata: Metadata = { title: "Transcribe" };

export default function DashboardHome() {
  return (
    <section className="flex min-w-0 flex-col gap-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">Transcribe</h1>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Scripting it?{" "}
          <Link className="rounded underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500" href="/dashboard/keys">
            Get an API key
          </Link>{" "}
          and see the{" "}
          <Link className="rounded underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500" href="/docs">
            API reference
          </Link>
          .
        </p>
      </div>
      {/* The panel reads ?url=&lang=&job= with useSearchParams, which needs a Suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-stone-600 dark:text-stone-400">Loading…</p>}>
        <TranscribePanel speechRecognition={speechRecognitionAvailable()} />
      </Suspense>
    </section>
  );
}
