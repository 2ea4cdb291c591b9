"use client";

import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  captionKindLabel,
  episodeAudio,
  platformLabel,
  playerFor,
  sourceHref,
  type Transcript,
} from "@/lib/browser/transcripts";
import { spokenDuration } from "@/lib/formats/spoken-duration";
import { forgetInAddress, transcriptAddress, type EditTarget } from "@/lib/browser/transcript-address";
import { usePlayer } from "@/lib/browser/use-player";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";
import { Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { PublishButton } from "@/components/dashboard/publish-button";
import { useAbilities } from "@/components/dashboard/abilities";
import { Downloads } from "@/components/transcript/dashboard/downloads-menu";
import { FormatTabs } from "@/components/transcript/dashboard/format-tabs";
import { EpisodeAudio } from "@/components/transcript/episode-audio";
import { PlayerKeys } from "@/components/transcript/player-keys";
import { PlayerFrame, UploadPlayer } from "@/components/transcript/dashboard/transcript-player";
import { EditToggle, TranscriptEditor } from "@/components/transcript/dashboard/editor";

/**
 * One transcript to read while it plays, as the page's own document: its title on top; on wide screens
 * the player (sticky) beside the text, on phones a compact player stuck to the top above it, with the
 * search bar pinned under it. On a phone the details and downloads wait behind one button, so that the
 * first screen reaches the text. The line being played is highlighted and kept in view (until the reader
 * scrolls away or turns it off), the text can be searched, copied as readable text and downloaded (.txt
 * and .srt first); every format has its own tab.
 */
export function TranscriptViewer({
  transcript: given,
  startAt = null,
  find = "",
  edit = null,
  published = null,
  publishFailure = null,
}: {
  transcript: Transcript;
  startAt?: number | null;
  /** The find box's first text (History's link to every moment of a search). */
  find?: string;
  /** The editor the address opens (`&edit=`: Edit followed as a link, before the page's scripts ran). */
  edit?: EditTarget;
  /** The slug the Publish form came back with, and why it failed where it did. */
  published?: string | null;
  publishFailure?: string | null;
}) {
  // The author's saved correction replaces what was given (components/transcript/dashboard/editor.tsx).
  const [transcript, setTranscript] = useState(given);
  // A viewer reads: no Publish, no Edit, no paragraph's Edit (the API would refuse each).
  const may = useAbilities();
  const [editing, setEditing] = useState(edit === "all" && may.edit);
  // What the Publish form came back with is shown from here on; a reload should not say it again.
  useEffect(() => {
    if (published || publishFailure) forgetInAddress("published", "publish_error");
  }, [published, publishFailure]);
  // The player depends on the source only: a saved correction must not reload it.
  const { platform, video_id, source_url } = transcript;
  const embedded = useMemo(
    () => playerFor({ platform, video_id, source_url }, startAt),
    [platform, video_id, source_url, startAt],
  );
  const upload = transcript.platform === "upload";
  const audio = useMemo(() => episodeAudio({ platform, source_url }), [platform, source_url]);
  const player = usePlayer(embedded, startAt);
  const hasPlayer = embedded !== null || upload || audio !== null;
  const title = transcript.title || transcript.video_id;
  // The tab names the transcript (one just transcribed too, which the page's metadata cannot know).
  useEffect(() => {
    const before = document.title;
    document.title = `${title} · Verbatim`;
    return () => {
      document.title = before;
    };
  }, [title]);
  const article = useRef<HTMLElement>(null);
  const pane = useRef<HTMLDivElement>(null);

  // The phone's pinned search bar sits right under the sticky player, whatever height the player has. Set
  // before any effect runs (a moment link lands in one, measuring what is pinned), then kept up to date.
  useLayoutEffect(() => {
    const element = pane.current;
    const root = article.current;
    if (!element || !root) return;
    const measure = () => root.style.setProperty("--player-height", `${element.offsetHeight}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasPlayer]);

  return (
    <article
      ref={article}
      // Phones: tighter, so that the first screen holds lines of the text under the title, the player and the bars.
      className="flex min-w-0 flex-col gap-3 sm:gap-5"
      aria-labelledby="transcript-title"
      data-testid="transcript-viewer"
    >
      <TranscriptHeader
        transcript={transcript}
        publish={may.publish}
        published={published}
        publishFailure={publishFailure}
        editToggle={
          <EditToggle
            edited={transcript.edited === true}
            editing={editing}
            href={transcriptAddress(transcript.id, { edit: "all" })}
            onToggle={setEditing}
            canEdit={may.edit}
          />
        }
      />
      <div
        className={
          hasPlayer
            ? "grid min-w-0 gap-2 sm:gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start lg:gap-6"
            : "min-w-0"
        }
      >
        {hasPlayer && (
          // Phones: a compact player stuck to the top while the text scrolls under it. Wide screens: sticky beside it.
          <div
            ref={pane}
            className="sticky top-0 z-20 -mx-4 bg-stone-50 px-4 pt-2 sm:mx-0 sm:px-0 lg:top-4 lg:bg-transparent lg:pt-0"
            data-pinned
            data-testid="player-pane"
          >
            {embedded ? (
              <PlayerFrame player={embedded} title={title} frameProps={player.frameProps} />
            ) : audio ? (
              <EpisodeAudio src={audio} title={title} mediaProps={player.mediaProps} />
            ) : (
              <UploadPlayer transcript={transcript} mediaProps={player.mediaProps} />
            )}
            {/* The keys work at every width; their list is a button on wide screens (phones seldom have keys). */}
            <PlayerKeys player={player} className="mt-2 max-lg:hidden" />
          </div>
        )}
        {editing && may.edit ? (
          <TranscriptEditor
            transcript={transcript}
            onSaved={setTranscript}
            onClose={() => {
              setEditing(false);
              forgetInAddress("edit");
            }}
          />
        ) : (
          <FormatTabs
            transcript={transcript}
            player={player}
            canSeek={hasPlayer}
            startAt={startAt}
            find={find}
            editParagraph={may.edit && typeof edit === "number" ? edit : -1}
            onSaved={may.edit ? setTranscript : undefined}
          />
        )}
      </div>
    </article>
  );
}

function TranscriptHeader({
  transcript,
  publish,
  editToggle,
  published,
  publishFailure,
}: {
  transcript: Transcript;
  publish: boolean;
  editToggle?: ReactNode;
  published: string | null;
  publishFailure: string | null;
}) {
  const sourceLink = sourceHref(transcript.source_url);
  const [details, setDetails] = useState(false);
  const detailsId = useId();
  const hydrated = useHydrated();
  return (
    <header className="flex min-w-0 flex-col gap-2 sm:gap-3">
      <h1
        id="transcript-title"
        className="text-xl font-semibold break-words sm:text-2xl"
        data-testid="transcript-title"
      >
        {transcript.title || transcript.video_id}
      </h1>
      <div className="flex flex-wrap items-center gap-2">
        {/* Phones only: the details and downloads below open from here. */}
        <button
          type="button"
          aria-expanded={details}
          aria-controls={detailsId}
          disabled={!hydrated}
          onClick={() => setDetails((open) => !open)}
          className={buttonClass("secondary", "sm", "sm:hidden")}
          data-testid="transcript-details-toggle"
        >
          Details &amp; downloads
          <span aria-hidden="true">{details ? "▴" : "▾"}</span>
        </button>
        {publish && (
          <PublishButton
            url={transcript.source_url}
            lang={transcript.lang}
            back={transcriptAddress(transcript.id)}
            published={published ? { slug: published, url: `/t/${published}` } : null}
            failure={publishFailure}
          />
        )}
        {editToggle}
        <a href="#transcript-lines" className={`sr-only rounded px-2 py-1 text-sm focus:not-sr-only ${focusRing}`}>
          Skip to the transcript text
        </a>
      </div>
      {transcript.source_note && (
        // Outside the phone's folded details: what the publisher's file lost is read before the text it is missing from.
        <Notice tone="warning" role="note" data-testid="transcript-source-note">
          {transcript.source_note}
        </Notice>
      )}
      <div
        id={detailsId}
        className={`flex min-w-0 flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between ${details ? "" : "max-sm:hidden"}`}
        data-testid="transcript-details"
      >
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <Detail label="Platform" value={platformLabel(transcript.platform)} testId="transcript-platform" />
          <Detail label="Language" value={transcript.lang} testId="transcript-lang" />
          <Detail label="Captions" value={captionKindLabel(transcript)} testId="transcript-caption-kind" />
          <Detail label="Duration" value={spokenDuration(transcript.duration_seconds)} testId="transcript-duration" />
          <div className="flex min-w-0 gap-1.5">
            <dt className="text-stone-600">Source</dt>
            <dd className="max-w-xs min-w-0 truncate" data-testid="transcript-source">
              {sourceLink ? (
                <a
                  href={sourceLink}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={`underline decoration-stone-400 hover:decoration-stone-900 max-sm:inline-flex max-sm:min-h-11 max-sm:items-center ${focusRing}`}
                >
                  {sourceLink.replace(/^https?:\/\//, "")}
                </a>
              ) : transcript.platform === "upload" ? (
                "Uploaded file"
              ) : (
                transcript.source_url
              )}
            </dd>
          </div>
        </dl>
        <Downloads transcriptId={transcript.id} />
      </div>
    </header>
  );
}

function Detail({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex gap-1.5">
      <dt className="text-stone-600">{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
