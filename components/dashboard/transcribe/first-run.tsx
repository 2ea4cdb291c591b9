import { useEffect } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";
import type { SetupLine } from "@/lib/health/setup-checks";
import { problemRows, sampleLinkFor, whatWorksRows, type WhatWorksView } from "@/lib/browser/what-works";

export { SAMPLE_LINK } from "@/lib/browser/what-works";

/** The File tab on a server without speech recognition: said before anything is chosen or uploaded. */
export function RecognitionOff() {
  return (
    <div
      className="flex min-h-24 flex-col justify-center gap-1 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
      data-testid="asr-off"
    >
      <p className="font-medium">Transcribing files is not available on this server.</p>
      <p>
        It needs speech recognition, which has not been set up here. Links to videos that have captions work: use the
        Link tab.
      </p>
    </div>
  );
}

const SETUP_LABELS: Record<SetupLine["id"], string> = {
  database: "Database",
  youtube: "Reaching YouTube",
  ytdlp: "yt-dlp (audio from platforms)",
  ffmpeg: "ffmpeg (audio conversion)",
  speech_model: "Speech model",
  search_meaning: "Search by meaning",
  outbound_proxy: "Outbound proxy",
  stripe: "Billing",
  mail: "Mail",
};

/** How often the page asks the server again while the first round of setup checks runs. */
const CHECKING_REFRESH_MS = 3000;

/**
 * The empty page: what this server can do now (lib/browser/what-works.ts), and a link to try when it can work.
 * An operator's page also lists the failing setup checks, each with what was found and the sentence that fixes
 * it (`npm run doctor` prints them all); nobody else's page is sent them.
 */
export function FirstRun({ view, onTrySample }: { view: WhatWorksView; onTrySample: (link: string) => void }) {
  const router = useRouter();
  const rows = whatWorksRows(view);
  const checking = rows.some((row) => row.state === "checking");
  const sample = sampleLinkFor(view.capabilities);
  // The checks run on the server in the background; the page asks again until their results are there.
  useEffect(() => {
    if (!checking) return;
    const timer = setInterval(() => router.refresh(), CHECKING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [checking, router]);
  return (
    <section
      className="flex flex-col gap-4 rounded-lg border border-dashed border-stone-300 p-4 text-sm"
      aria-labelledby="first-run-title"
      data-testid="first-run"
    >
      <h2 id="first-run-title" className="font-semibold">
        What works on this server
      </h2>
      <ul className="flex flex-col gap-3">
        {rows.map((row) => (
          <li key={row.testId} className="flex gap-3" data-testid={row.testId} data-available={row.state}>
            <span
              aria-hidden="true"
              className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${row.state === true ? "bg-emerald-100 text-emerald-800" : "bg-stone-200 text-stone-700"}`}
            >
              {row.state === "checking" ? "…" : row.state ? "✓" : "–"}
            </span>
            <span className="min-w-0">
              <span className="font-medium">{row.title}</span>{" "}
              <span className="sr-only">
                {row.state === "checking" ? "(checking)" : row.state ? "(available)" : "(not available)"}
              </span>
              <span className="block break-words text-stone-600">{row.text}</span>
            </span>
          </li>
        ))}
        {problemRows(view).map((line) => (
          <li key={line.id} className="flex gap-3" data-testid="setup-problem" data-check={line.id}>
            <span
              aria-hidden="true"
              className="mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-red-100 text-xs font-bold text-red-800"
            >
              ✗
            </span>
            <span className="min-w-0">
              <span className="font-medium">{SETUP_LABELS[line.id]}</span> <span className="sr-only">(failing)</span>
              <span className="block break-words text-stone-600">
                {line.found}. {line.fix}
              </span>
            </span>
          </li>
        ))}
      </ul>
      {view.problems !== undefined && (
        <p className="text-xs text-stone-600" data-testid="operator-note">
          You run this server, so you see why something fails; everyone else sees only what works.
        </p>
      )}
      {sample && (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            onClick={() => onTrySample(sample)}
            className={buttonClass("secondary", "md", "font-medium")}
            data-testid="try-sample"
          >
            Try a sample link
          </button>
          <span className="min-w-0 break-all text-xs text-stone-600">{sample}</span>
        </div>
      )}
    </section>
  );
}

/** The page's heading while nothing is shown yet (a transcript, once shown, is the page's heading). */
export function TranscribeHeading() {
  const link = `rounded underline ${focusRing}`;
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <h1 className="text-2xl font-semibold">Transcribe</h1>
      <p className="text-sm text-stone-600">
        Scripting it?{" "}
        <Link className={link} href="/dashboard/keys">
          Get an API key
        </Link>{" "}
        and see the{" "}
        <Link className={link} href="/docs">
          API reference
        </Link>
        .
      </p>
    </div>
  );
}
