// Browser side of imports: start one (POST /v1/import), list the caller's batches (GET /v1/import) and a
// batch's items (GET /v1/import/{batch_id}/items), and try a failed item again (POST …/items/retry).

import type { ImportBatchOut, ImportItemOut, ImportItemsResponse } from "@/lib/imports/schemas";
import type { ResolveResponse } from "@/lib/podcasts/schemas";
import { apiFetch } from "@/lib/browser/api";
import { formatMinutes } from "@/lib/browser/transcripts";
import { durationSeconds as feedDurationSeconds } from "@/lib/podcasts/duration";
import { chargedSeconds } from "@/lib/usage/charged-seconds";

export type { ImportBatchOut, ImportItemOut, ImportItemsResponse };

export const IMPORTS_KEY = ["imports"] as const;

export function fetchImports(): Promise<ImportBatchOut[]> {
  return apiFetch<ImportBatchOut[]>("/v1/import");
}

export function startImport(url: string): Promise<{ batch_id: string }> {
  return apiFetch<{ batch_id: string }>("/v1/import", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url }),
  });
}

/** What an import would take in, to show its cost before it starts: a feed's episodes (POST /v1/podcast/resolve). */
export function previewFeed(url: string): Promise<ResolveResponse> {
  return apiFetch<ResolveResponse>("/v1/podcast/resolve", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url }), // every episode of a real feed (up to 5,000), so the cost is the whole feed's
  });
}

/**
 * Seconds an episode's duration (POST /v1/podcast/resolve's HH:MM:SS) is charged, read and rounded as the server
 * reads the feed's and charges the item; null when the feed gave none.
 */
export function durationSeconds(duration: string | null): number | null {
  if (!duration) return null;
  const seconds = feedDurationSeconds(duration);
  return Number.isFinite(seconds) ? chargedSeconds(seconds) : null;
}

/**
 * What the listed episodes will be charged in all (each as the server charges an item: lib/usage/charged-seconds.ts),
 * and how many of them the feed gave no length for.
 */
export function feedCost(episodes: readonly { duration: string | null }[]): { seconds: number; unknown: number } {
  let seconds = 0;
  let unknown = 0;
  for (const episode of episodes) {
    const length = durationSeconds(episode.duration);
    if (length === null) unknown += 1;
    else seconds += length;
  }
  return { seconds, unknown };
}

/** Percent of the batch's items that are finished (done, failed or skipped); 0 until it is listed. */
export function batchProgress(batch: Pick<ImportBatchOut, "total" | "done" | "failed" | "skipped">): number {
  if (batch.total <= 0) return 0;
  return Math.min(100, ((batch.done + batch.failed + batch.skipped) / batch.total) * 100);
}

export function isBatchActive(batch: Pick<ImportBatchOut, "status">): boolean {
  return batch.status === "queued" || batch.status === "running";
}

export const IMPORT_STATUS_LABELS: Readonly<Record<ImportBatchOut["status"], string>> = {
  queued: "Queued",
  running: "Running",
  done: "Done",
  partial: "Done, some failed",
  error: "Failed",
};

export const importItemsKey = (batchId: string) => [...IMPORTS_KEY, batchId, "items"] as const;

export function fetchImportItems(batchId: string, cursor: string | null): Promise<ImportItemsResponse> {
  const search = cursor ? `?${new URLSearchParams({ cursor }).toString()}` : "";
  return apiFetch<ImportItemsResponse>(`/v1/import/${encodeURIComponent(batchId)}/items${search}`);
}

/** Queues a failed item again; the batch runs again if it had ended. */
export function retryImportItem(batchId: string, guid: string): Promise<ImportItemOut> {
  return apiFetch<ImportItemOut>(`/v1/import/${encodeURIComponent(batchId)}/items/retry`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ guid }),
  });
}

export const IMPORT_ITEM_STATUS_LABELS: Readonly<Record<ImportItemOut["status"], string>> = {
  queued: "Queued",
  running: "Transcribing",
  done: "Done",
  failed: "Failed",
  skipped: "Skipped",
};

/** The dashboard page showing a transcript from the caller's history. */
export function storedTranscriptHref(transcriptId: string): string {
  return `/dashboard?${new URLSearchParams({ transcript: transcriptId }).toString()}`;
}

/**
 * What the import preview says a feed's episodes will take. Every new transcript's length counts toward the
 * allowance (the contract counts minutes of media, a platform's captions and a publisher's own transcript alike;
 * lib/transcripts/record-transcription.ts); an episode with its own transcript is only taken at once, without speech
 * recognition. Where the server cannot recognise speech, which episodes will be taken and which cannot be. `listed`
 * < `total`: the newest `listed` episodes only. `cost`: whether the allowance is concerned (its "left" line is then
 * worth saying).
 */
export function importCostText(
  episodes: readonly { duration: string | null; has_transcript?: boolean }[],
  total: number,
  speechRecognition: boolean,
): { text: string; seconds: number; cost: boolean } {
  const count = (n: number, what = "episode") => `${n.toLocaleString("en-US")} ${what}${n === 1 ? "" : "s"}`;
  const needing = episodes.filter((episode) => !episode.has_transcript);
  const own = episodes.length - needing.length;
  const scope = episodes.length < total ? ` of the newest ${episodes.length.toLocaleString("en-US")}` : "";
  const counted = (taken: readonly { duration: string | null }[]) => {
    const { seconds, unknown } = feedCost(taken);
    return {
      seconds,
      text: `About ${formatMinutes(seconds)} of audio${unknown > 0 ? ` (${unknown} without a stated length)` : ""}`,
    };
  };
  const free = "episodes already in your history are free";
  if (episodes.length > 0 && needing.length === 0) {
    const length = counted(episodes);
    return {
      text: `Every episode${scope} publishes its own transcript: each is taken as it is, at once, without speech recognition. ${length.text} counts toward your allowance; ${free}.`,
      seconds: length.seconds,
      cost: true,
    };
  }
  const ownText =
    own === 1
      ? `1 episode${scope} publishes its own transcript (taken at once)`
      : `${count(own)}${scope} publish their own transcript (taken at once)`;
  if (!speechRecognition) {
    const length = counted(episodes.filter((episode) => episode.has_transcript));
    return {
      text:
        own > 0
          ? `${ownText}; ${needing.length === 1 ? "the other episode needs" : `the other ${count(needing.length)} need`} speech recognition, which this server does not have: ${needing.length === 1 ? "it" : "they"} will fail. ${length.text} counts toward your allowance; ${free}.`
          : "No episode here publishes its own transcript, and this server cannot recognise speech: each episode would fail.",
      seconds: length.seconds,
      cost: own > 0,
    };
  }
  const length = counted(episodes);
  const what = own > 0 ? ` in all` : scope ? ` in the newest ${episodes.length.toLocaleString("en-US")}` : "";
  const recognised =
    own > 0 ? `, the ${count(needing.length)} without their own transcript through speech recognition` : "";
  return {
    text: `${own > 0 ? `${ownText}. ` : ""}${length.text}${what} counts toward your allowance${recognised}; ${free}.`,
    seconds: length.seconds,
    cost: true,
  };
}
