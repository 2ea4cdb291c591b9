import Link from "next/link";
import {
  canonicalSourceUrl,
  platformLabel,
  STATE_LABELS,
  storedTranscriptHref,
  transcribeHref,
  watchJobHref,
  type TranscriptionEntry,
} from "@/lib/browser/transcripts";
import { spokenDuration } from "@/lib/formats/spoken-duration";
import { focusRing } from "@/components/ui/focus";
import { formatDateTime } from "@/lib/browser/dates";
import { useAbilities } from "@/components/dashboard/abilities";

const linkClass = `underline decoration-stone-400 hover:decoration-stone-900 ${focusRing}`;

/**
 * Where a row opens: its stored transcript, read (GET /v1/transcripts/{id}, what every role may do, as a search
 * result opens it); a finished entry without one yet shows its job.
 */
export function openHref(entry: Pick<TranscriptionEntry, "status" | "transcript_id" | "job_id">): string | null {
  if (entry.status !== "done") return null;
  if (entry.transcript_id) return storedTranscriptHref(entry.transcript_id);
  return entry.job_id ? watchJobHref(entry.job_id) : null;
}

/**
 * How a failed row is tried again: its link (a page, an episode's audio, an upload's stored file) asked
 * for once more; an upload whose file is not known any more is chosen again on the Transcribe page.
 */
export function retryTarget(entry: TranscriptionEntry): { href: string; label: string } {
  const link = canonicalSourceUrl(entry.source, entry.video_id) ?? entry.source_url;
  if (link) return { href: transcribeHref(link, entry.lang), label: "Retry" };
  if (entry.source === "podcast") return { href: "/dashboard/imports", label: "Retry from Imports" };
  return { href: "/dashboard", label: "Upload again" };
}

/** The title the platform gave, an upload's file name; never a storage path. */
export function displayTitle(entry: TranscriptionEntry): string {
  const title = entry.title?.trim();
  if (title) return title;
  if (entry.source === "upload") return "Uploaded file";
  if (entry.source === "podcast") return "Podcast episode";
  return `${platformLabel(entry.source)} video`;
}

export function TitleCell({ entry }: { entry: TranscriptionEntry }) {
  const href = openHref(entry);
  const title = displayTitle(entry);
  // Uploads and podcasts are named by their title alone: their ids are storage keys and hashes.
  const showId = entry.source !== "upload" && entry.source !== "podcast";
  return (
    <div className="flex min-w-0 items-start gap-3">
      <Thumbnail entry={entry} />
      <div className="flex min-w-0 flex-col gap-0.5">
        {href ? (
          <Link href={href} className={`font-medium break-words ${linkClass}`} data-testid="history-video-link">
            {title}
          </Link>
        ) : (
          <span className="font-medium break-words" data-testid="history-title">
            {title}
          </span>
        )}
        <span className="text-xs text-stone-600">
          {platformLabel(entry.source)}
          {entry.lang ? ` · ${entry.lang}` : ""}
          {showId && (
            <>
              {" · "}
              <span className="font-mono break-all">{entry.video_id}</span>
            </>
          )}
        </span>
        {entry.added_by && (
          // A team's history: who asked for it.
          <span className="text-xs break-all text-stone-600" data-testid="history-added-by">
            Added by {entry.added_by}
          </span>
        )}
      </div>
    </div>
  );
}

function Thumbnail({ entry }: { entry: TranscriptionEntry }) {
  if (entry.thumbnail_url) {
    // A platform image on its own host (img-src allows it); the address alone says nothing about the user.
    return (
      // eslint-disable-next-line @next/next/no-img-element
      <img
        src={entry.thumbnail_url}
        alt=""
        width={64}
        height={36}
        loading="lazy"
        referrerPolicy="no-referrer"
        className="h-9 w-16 shrink-0 rounded bg-stone-200 object-cover"
        data-testid="history-thumbnail"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="flex h-9 w-16 shrink-0 items-center justify-center rounded bg-stone-100 text-xs font-medium text-stone-600"
    >
      {entry.source === "upload" ? "File" : entry.source === "podcast" ? "Audio" : platformLabel(entry.source)}
    </span>
  );
}

export function Created({ entry }: { entry: TranscriptionEntry }) {
  if (!entry.created_at) return <>—</>;
  return (
    <time dateTime={entry.created_at} title={entry.created_at}>
      {formatDateTime(entry.created_at)}
    </time>
  );
}

export function Duration({ entry }: { entry: TranscriptionEntry }) {
  if (entry.status === "error" && entry.total_seconds === 0) return <>—</>;
  if (entry.status === "in_progress" && entry.duration_seconds < entry.total_seconds) {
    // A duration never breaks inside itself ("12 min / 34 s"); the two may go on two lines at "of".
    return (
      <>
        <span className="whitespace-nowrap">{spokenDuration(entry.duration_seconds)}</span> of{" "}
        <span className="whitespace-nowrap">{spokenDuration(entry.total_seconds)}</span>
      </>
    );
  }
  return (
    <span className="whitespace-nowrap" data-testid="history-duration">
      {spokenDuration(entry.total_seconds)}
    </span>
  );
}

const BADGE_CLASSES = {
  done: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  in_progress: "bg-amber-50 text-amber-800 ring-amber-200",
  error: "bg-red-50 text-red-800 ring-red-200",
} as const;

/** The state, with Watch while it runs, and the reason and Retry once it failed (every failed row). */
export function StateCell({ entry }: { entry: TranscriptionEntry }) {
  const may = useAbilities();
  const state =
    entry.status === "in_progress" || entry.status === "error" || entry.status === "done"
      ? entry.status
      : entry.complete
        ? "done"
        : null;
  if (!state) return <span className="text-stone-600">{entry.status ?? "—"}</span>;
  // Retrying asks for the transcript again, which a viewer may not.
  const retry = state === "error" && may.transcribe ? retryTarget(entry) : null;
  return (
    <div className="flex flex-col items-start gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <Badge state={state} />
        {state === "in_progress" && entry.job_id && (
          <Link
            href={watchJobHref(entry.job_id)}
            className={`text-xs max-sm:inline-flex max-sm:min-h-11 max-sm:items-center ${linkClass}`}
            data-testid="history-watch-link"
          >
            Watch
          </Link>
        )}
        {retry && (
          <Link
            href={retry.href}
            className={`text-xs max-sm:inline-flex max-sm:min-h-11 max-sm:items-center ${linkClass}`}
            data-testid="history-retry-link"
          >
            {retry.label}
          </Link>
        )}
      </div>
      {state === "error" && (
        <p className="text-xs break-words text-red-800" data-testid="history-failure-reason">
          {entry.error?.message || "The transcription failed."}
        </p>
      )}
    </div>
  );
}

function Badge({ state }: { state: keyof typeof BADGE_CLASSES }) {
  // Lower case in the text (as the API names states), capitalised on screen.
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset first-letter:uppercase ${BADGE_CLASSES[state]}`}
      data-testid="history-state-badge"
    >
      {STATE_LABELS[state].toLowerCase()}
    </span>
  );
}
