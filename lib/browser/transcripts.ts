// Browser-side helpers for the Transcribe and History pages: the API calls, their query keys,
// canonical links back into the Transcribe page, the history URL state, and display formatting.
// Only types come from the server modules, so nothing server-side is bundled for the browser.

import type { z } from "zod";
import type {
  HISTORY_PLATFORMS,
  JobResponse,
  TranscriptResponse,
  transcriptionEntrySchema,
  transcriptionListSchema,
} from "@/lib/transcripts/schemas";
import type { SubscriptionResponse } from "@/lib/usage/schemas";
import type { Format } from "@/lib/formats/types";
import { apiFetch, apiFetchWithStatus } from "@/lib/browser/api";
import { spokenDuration } from "@/lib/formats/spoken-duration";

export type Transcript = TranscriptResponse;
export type TranscriptionEntry = z.infer<typeof transcriptionEntrySchema>;
export type TranscriptionList = z.infer<typeof transcriptionListSchema>;
export type Subscription = SubscriptionResponse;
export type Job = JobResponse;
export type { Format };

// ---------------------------------------------------------------------------------------------
// Formats

export const FORMAT_TABS: readonly { format: Format; label: string; extension: string }[] = [
  { format: "json", label: "Transcript", extension: "json" },
  { format: "text", label: "Text", extension: "txt" },
  { format: "srt", label: "SRT", extension: "srt" },
  { format: "vtt", label: "VTT", extension: "vtt" },
  { format: "md", label: "Markdown", extension: "md" },
];

// ---------------------------------------------------------------------------------------------
// Platforms

export type HistoryPlatform = (typeof HISTORY_PLATFORMS)[number];

export const PLATFORM_LABELS: Record<HistoryPlatform, string> = {
  youtube: "YouTube",
  x: "X",
  tiktok: "TikTok",
  facebook: "Facebook",
  instagram: "Instagram",
  rednote: "RedNote",
  vimeo: "Vimeo",
  upload: "Upload",
  podcast: "Podcast",
};

export const HISTORY_PLATFORM_OPTIONS = Object.keys(PLATFORM_LABELS) as HistoryPlatform[];

export function platformLabel(platform: string | null): string {
  if (!platform) return "—";
  return (PLATFORM_LABELS as Record<string, string>)[platform] ?? platform;
}

/** The canonical page of an item, as the API itself canonicalises links; null for uploads and podcasts. */
export function canonicalSourceUrl(platform: string | null, videoId: string): string | null {
  const id = encodeURIComponent(videoId);
  switch (platform) {
    case "youtube":
      return `https://www.youtube.com/watch?v=${id}`;
    case "x":
      return `https://x.com/i/status/${id}`;
    case "tiktok":
      return `https://www.tiktok.com/@/video/${id}`;
    case "vimeo":
      return `https://vimeo.com/${id}`;
    case "instagram":
      return `https://www.instagram.com/p/${id}/`;
    case "facebook":
      return `https://www.facebook.com/watch/?v=${id}`;
    case "rednote":
      return `https://www.xiaohongshu.com/explore/${id}`;
    default:
      return null;
  }
}

/** A transcript's source as a link: web addresses only (an upload's `upload:…` source is not one). */
export function sourceHref(sourceUrl: string): string | null {
  return /^https?:\/\//i.test(sourceUrl) ? sourceUrl : null;
}

/** The Transcribe page, set to request `url` in `lang` as soon as it opens. */
export function transcribeHref(url: string, lang: string | null): string {
  const search = new URLSearchParams({ url });
  if (lang) search.set("lang", lang);
  return `/dashboard?${search.toString()}`;
}

// ---------------------------------------------------------------------------------------------
// Embedded players (YouTube IFrame API and Vimeo player API, both over postMessage)

export interface Player {
  kind: "youtube" | "vimeo";
  src: string;
  /** The iframe's origin: the only target postMessage commands are sent to. */
  origin: string;
}

export function playerFor(
  transcript: Pick<Transcript, "platform" | "video_id" | "source_url">,
  startAt: number | null = null,
): Player | null {
  const id = encodeURIComponent(transcript.video_id);
  // A moment to open at (a search result's ?t=): the player is cued there.
  const start = startAt !== null && startAt > 0 ? Math.floor(startAt) : null;
  if (transcript.platform === "youtube") {
    return {
      kind: "youtube",
      src: `https://www.youtube-nocookie.com/embed/${id}?enablejsapi=1${start ? `&start=${start}` : ""}`,
      origin: "https://www.youtube-nocookie.com",
    };
  }
  if (transcript.platform === "vimeo") {
    // Unlisted videos carry their hash in the canonical URL (vimeo.com/ID/HASH); the player needs it as ?h=.
    const hash = /vimeo\.com\/\d+\/([0-9a-f]+)/i.exec(transcript.source_url)?.[1];
    const src = `https://player.vimeo.com/video/${id}${hash ? `?h=${hash}` : ""}${start ? `#t=${start}s` : ""}`;
    return { kind: "vimeo", src, origin: "https://player.vimeo.com" };
  }
  return null;
}

/**
 * A podcast episode's audio, to play in an <audio> element: the enclosure URL the transcript was made from (its
 * source URL), where it is a web address; null for anything else.
 */
export function episodeAudio(transcript: { platform: string | null; source_url: string | null }): string | null {
  if (transcript.platform !== "podcast" || !transcript.source_url) return null;
  return /^https?:\/\//i.test(transcript.source_url) ? transcript.source_url : null;
}

/** The player's address cued at a moment (whole seconds), as playerFor gives it with `startAt`. */
export function cuedSrc(player: Pick<Player, "kind" | "src">, seconds: number): string {
  const start = Math.floor(seconds);
  if (start <= 0) return player.src;
  const src = player.src.replace(/[&?]start=\d+/, "").replace(/#t=\d+s$/, "");
  if (player.kind === "youtube") return `${src}${src.includes("?") ? "&" : "?"}start=${start}`;
  return `${src}#t=${start}s`;
}

/** The postMessage payloads that seek the player to `seconds` and play (or only seek, `play` false). */
export function seekMessages(kind: Player["kind"], seconds: number, play = true): string[] {
  const t = Math.max(0, Math.round(seconds * 1000) / 1000);
  const seek =
    kind === "youtube"
      ? JSON.stringify({ event: "command", func: "seekTo", args: [t, true] })
      : JSON.stringify({ method: "setCurrentTime", value: t });
  return play ? [seek, ...playMessages(kind, true)] : [seek];
}

/** The postMessage payloads that play (or pause) the player. */
export function playMessages(kind: Player["kind"], play: boolean): string[] {
  if (kind === "youtube")
    return [JSON.stringify({ event: "command", func: play ? "playVideo" : "pauseVideo", args: [] })];
  return [JSON.stringify({ method: play ? "play" : "pause" })];
}

// ---------------------------------------------------------------------------------------------
// API calls and query keys

export type TranscribeResult =
  | { kind: "transcript"; transcript: Transcript }
  | { kind: "queued"; jobId: string; status: string };

/** What to transcribe: a link, or the object path of a finished upload; in `lang`. */
export type TranscribeInput = { lang: string; vocabulary?: string[] } & (
  | { url: string; upload?: never }
  | { upload: string; url?: never }
);

/** The form's "names and terms" text as the API's vocabulary: split at commas and new lines, blanks dropped. */
export function parseVocabulary(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((term) => term.trim())
    .filter(Boolean);
}

/** POST /v1/transcript: the transcript at once (200), or a speech recognition job to watch (202). */
export async function postTranscriptRequest(input: TranscribeInput): Promise<TranscribeResult> {
  const source = input.upload !== undefined ? { upload: input.upload } : { url: input.url };
  const { status, body } = await apiFetchWithStatus<Transcript | { job_id: string; status: string }>("/v1/transcript", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      ...source,
      lang: input.lang,
      format: "json",
      ...(input.vocabulary?.length ? { vocabulary: input.vocabulary } : {}),
    }),
  });
  if (status === 202 || (body && "job_id" in body && !("segments" in body))) {
    const job = body as { job_id: string; status: string };
    return { kind: "queued", jobId: job.job_id, status: job.status };
  }
  return { kind: "transcript", transcript: body as Transcript };
}

export const transcriptKey = (id: string, format: Format) => ["transcript", id, format] as const;

export function fetchTranscript(id: string, format: Format): Promise<Transcript> {
  return apiFetch<Transcript>(`/v1/transcripts/${encodeURIComponent(id)}?format=${format}`);
}

export function downloadHref(id: string, format: Format): string {
  return `/v1/transcripts/${encodeURIComponent(id)}/download?format=${format}`;
}

/** An upload's own file, played back beside its transcript (while the upload is kept). */
export function mediaHref(id: string): string {
  return `/v1/transcripts/${encodeURIComponent(id)}/media`;
}

/** Whether an uploaded file (by its name) is a video, to play it in a <video> rather than an <audio>. */
export function isVideoFilename(name: string | null): boolean {
  return /\.(mp4|m4v|mov|webm|mkv)$/i.test(name ?? "");
}

// Speech recognition jobs

export const jobKey = (id: string) => ["job", id] as const;

/** How often a job still queued or running is asked about again. */
export const JOB_POLL_MS = 1500;

export function fetchJob(id: string): Promise<Job> {
  return apiFetch<Job>(`/v1/jobs/${encodeURIComponent(id)}?format=json`);
}

export function jobFinished(job: Pick<Job, "status"> | undefined): boolean {
  return job?.status === "done" || job?.status === "error";
}

/** "Queued", "Running", "Done", or "Failed: <the job's message>". */
export function jobStatusLabel(job: Pick<Job, "status" | "error">): string {
  switch (job.status) {
    case "queued":
      return "Queued";
    case "running":
      return "Running";
    case "done":
      return "Done";
    default:
      return `Failed: ${job.error?.message ?? "the job failed."}`;
  }
}

/** The pipeline's step names that are not yet words a user would use. */
const STAGE_WORDS: Record<string, string> = {
  probing: "Reading the file",
  converting: "Preparing the audio",
  recognize: "Recognising speech",
  "uploading audio": "Sending the audio to speech recognition",
  storing: "Saving the transcript",
  finishing: "Saving the transcript",
  listing: "Reading the feed",
};

/** The pipeline's stage ("recognising speech") as a sentence start ("Recognising speech"); "" when none. */
export function jobStageLabel(stage: string | null): string {
  const text = (stage ?? "").replace(/[_-]+/g, " ").trim();
  if (STAGE_WORDS[text]) return STAGE_WORDS[text];
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
}

/** The dashboard's viewer reading a stored transcript by its id (a read: every role may). */
export function storedTranscriptHref(transcriptId: string): string {
  return `/dashboard?${new URLSearchParams({ transcript: transcriptId }).toString()}`;
}

/** The Transcribe page watching a job (and showing its transcript once done). */
export function watchJobHref(jobId: string): string {
  return `/dashboard?${new URLSearchParams({ job: jobId }).toString()}`;
}

export const SUBSCRIPTION_KEY = ["subscription"] as const;

export function fetchSubscription(): Promise<Subscription> {
  return apiFetch<Subscription>("/v1/me/subscription");
}

export const TRANSCRIPTIONS_KEY = ["transcriptions"] as const;

export function fetchTranscriptions(params: HistoryParams): Promise<TranscriptionList> {
  return apiFetch<TranscriptionList>(`/v1/me/transcriptions?${historyApiSearch(params)}`);
}

// ---------------------------------------------------------------------------------------------
// History page state, all of it in the page's query string

export const HISTORY_PAGE_SIZE = 20;
export const HISTORY_STATES = ["done", "in_progress", "error"] as const;
export type HistoryState = (typeof HISTORY_STATES)[number];
export const HISTORY_SORTS = ["created_at", "duration_seconds", "total_seconds"] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];
export type SortOrder = "asc" | "desc";

export const STATE_LABELS: Record<HistoryState, string> = { done: "Done", in_progress: "In progress", error: "Failed" };

export interface HistoryParams {
  q: string;
  platform: HistoryPlatform | null;
  state: HistoryState | null;
  sort: HistorySort;
  order: SortOrder;
  /** 1-based. */
  page: number;
}

export const DEFAULT_HISTORY_PARAMS: HistoryParams = {
  q: "",
  platform: null,
  state: null,
  sort: "created_at",
  order: "desc",
  page: 1,
};

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;
}

/** Reads the page's query string; unknown values fall back to the defaults rather than failing. */
export function parseHistoryParams(search: { get(name: string): string | null }): HistoryParams {
  const page = Number(search.get("page"));
  return {
    q: (search.get("q") ?? "").slice(0, 200),
    platform: oneOf(HISTORY_PLATFORM_OPTIONS, search.get("platform")),
    state: oneOf(HISTORY_STATES, search.get("state")),
    sort: oneOf(HISTORY_SORTS, search.get("sort")) ?? DEFAULT_HISTORY_PARAMS.sort,
    order: oneOf(["asc", "desc"] as const, search.get("order")) ?? DEFAULT_HISTORY_PARAMS.order,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The page's query string: only what differs from the defaults, in a stable order. */
export function historySearch(params: HistoryParams): string {
  const search = new URLSearchParams();
  if (params.q.trim()) search.set("q", params.q.trim());
  if (params.platform) search.set("platform", params.platform);
  if (params.state) search.set("state", params.state);
  if (params.sort !== DEFAULT_HISTORY_PARAMS.sort) search.set("sort", params.sort);
  if (params.order !== DEFAULT_HISTORY_PARAMS.order) search.set("order", params.order);
  if (params.page > 1) search.set("page", String(params.page));
  return search.toString();
}

/** The API's query string for the same view. */
export function historyApiSearch(params: HistoryParams): string {
  const search = new URLSearchParams({
    limit: String(HISTORY_PAGE_SIZE),
    offset: String((params.page - 1) * HISTORY_PAGE_SIZE),
    sort: params.sort,
    order: params.order,
  });
  if (params.q.trim()) search.set("q", params.q.trim());
  if (params.platform) search.set("platform", params.platform);
  if (params.state) search.set("state", params.state);
  return search.toString();
}

export function hasHistoryFilters(params: HistoryParams): boolean {
  return params.q.trim() !== "" || params.platform !== null || params.state !== null;
}

// ---------------------------------------------------------------------------------------------
// Display

/** 75.4 → "1:15", 3725 → "1:02:05". */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return `${h > 0 ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

/** An allowance or a cost rounded up to the minute, said as people do: 90 → "2 min", 4283 → "1 h 12 min". */
export function formatMinutes(seconds: number): string {
  const minutes = Math.ceil(Math.max(0, seconds) / 60);
  return minutes < 60 ? `${minutes} min` : spokenDuration(minutes * 60);
}

export function captionKindLabel(transcript: Pick<Transcript, "source" | "caption_kind" | "platform">): string {
  if (transcript.source === "asr") return "Speech recognition";
  // A podcast's captions are the file its feed publishes (Podcasting 2.0 <podcast:transcript>).
  if (transcript.platform === "podcast") return "The publisher's own";
  if (transcript.caption_kind === "manual") return "Manual";
  if (transcript.caption_kind === "auto") return "Auto-generated";
  if (transcript.caption_kind === "translated") return "Machine-translated";
  return "Captions";
}
