import { useEffect } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";
import type { SetupLine } from "@/lib/health/setup-checks";

/** A link with captions to try on a first visit: TED's "Grit" talk, which has manual English captions. */
export const SAMPLE_LINK = "https://www.youtube.com/watch?v=H14bBuluwB8";

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
  outbound_proxy: "Outbound proxy",
  stripe: "Billing",
  mail: "Mail",
};

/** How often the page asks the server again while the first round of setup checks runs. */
const CHECKING_REFRESH_MS = 3000;

/** The empty page: what this server can do now, and a link to try. */
export function FirstRun({
  speechRecognition,
  recogniser,
  setupProblems = [],
  onTrySample,
}: {
  speechRecognition: boolean;
  recogniser: string | null;
  /**
   * Failing setup checks (`npm run doctor` prints them all): each a ✗ row with the sentence that fixes it;
   * null while the first round after a start still runs ("checking…" rows until it ends).
   */
  setupProblems?: readonly SetupLine[] | null;
  onTrySample: () => void;
}) {
  const router = useRouter();
  const checking = setupProblems === null;
  // The checks run on the server in the background; the page asks again until their results are there.
  useEffect(() => {
    if (!checking) return;
    const timer = setInterval(() => router.refresh(), CHECKING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [checking, router]);
  // A recogniser is set up but its model is missing and cannot be downloaded: files do not work (issue 37).
  const model = setupProblems?.find((line) => line.id === "speech_model");
  const others = (setupProblems ?? []).filter((line) => line.id !== "speech_model");
  const row = (ok: boolean | "checking", what: string, how: string, testId: string) => (
    <li className="flex gap-3" data-testid={testId} data-available={ok}>
      <span
        aria-hidden="true"
        className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${ok === true ? "bg-emerald-100 text-emerald-800" : "bg-stone-200 text-stone-700"}`}
      >
        {ok === "checking" ? "…" : ok ? "✓" : "–"}
      </span>
      <span>
        <span className="font-medium">{what}</span>{" "}
        <span className="sr-only">{ok === "checking" ? "(checking)" : ok ? "(available)" : "(not available)"}</span>
        <span className="block text-stone-600">{how}</span>
      </span>
    </li>
  );
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
        {row(
          true,
          "Links with captions",
          "YouTube, X, TikTok, Facebook, Instagram, RedNote and Vimeo videos that have captions: the transcript comes back at once.",
          "can-captions",
        )}
        {row(
          speechRecognition && checking ? "checking" : speechRecognition && !model,
          "Files, podcasts and videos without captions",
          !speechRecognition
            ? "Not on this server: they need speech recognition, which has not been set up here."
            : checking
              ? `Checking… whether the speech model${recogniser ? ` (${recogniser})` : ""} is here or can be fetched.`
              : model
                ? `Not on this server yet: ${model.found}. ${model.fix ?? ""}`
                : `Transcribed by speech recognition${recogniser ? ` (${recogniser})` : ""} in the background; follow the progress here or in History.`,
          "can-asr",
        )}
        {checking &&
          row(
            "checking",
            "This server's setup",
            "Checking… the database, reaching YouTube, yt-dlp, ffmpeg and the configured services (what `npm run doctor` prints). Results appear here in a few seconds.",
            "setup-checking",
          )}
        {others.map((line) => (
          <li key={line.id} className="flex gap-3" data-testid="setup-problem" data-check={line.id}>
            <span
              aria-hidden="true"
              className="mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-red-100 text-xs font-bold text-red-800"
            >
              ✗
            </span>
            <span>
              <span className="font-medium">{SETUP_LABELS[line.id]}</span> <span className="sr-only">(failing)</span>
              <span className="block text-stone-600">
                {line.found}. {line.fix}
              </span>
            </span>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={onTrySample}
          className={buttonClass("secondary", "md", "font-medium")}
          data-testid="try-sample"
        >
          Try a sample link
        </button>
        <span className="min-w-0 break-all text-xs text-stone-600">{SAMPLE_LINK}</span>
      </div>
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
