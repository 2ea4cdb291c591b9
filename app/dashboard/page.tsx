import { Suspense } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { TranscribePanel } from "@/components/dashboard/transcribe-panel";

export const metadata: Metadata = { title: "Transcribe" };

export default function DashboardHome() {
  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">Transcribe</h1>
        <p className="text-sm text-stone-500">
          Scripting it? <Link className="underline" href="/dashboard/keys">Get an API key</Link> and see the{" "}
          <Link className="underline" href="/docs">API reference</Link>.
        </p>
      </div>
      {/* The panel reads ?url=&lang=&job= with useSearchParams, which needs a Suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-stone-500">Loading…</p>}>
        <TranscribePanel />
      </Suspense>
    </section>
  );
}
