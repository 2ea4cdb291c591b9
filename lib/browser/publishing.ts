// Browser side of publishing: the /v1 calls the dashboard makes.
import type { PublishResponse } from "@/lib/publishing/schemas";
import { apiFetch } from "@/lib/browser/api";
import { canonicalSourceUrl, type TranscriptionEntry } from "@/lib/browser/transcripts";

export type { PublishResponse };

export function publishTranscript(url: string, lang: string): Promise<PublishResponse> {
  return apiFetch<PublishResponse>("/v1/publish", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url, lang }),
  });
}

export async function unpublishTranscript(slug: string): Promise<void> {
  await apiFetch<null>(`/v1/publish/${encodeURIComponent(slug)}`, { method: "DELETE" });
}

/**
 * Whether an address is this machine only (localhost, 127.0.0.0/8, ::1, 0.0.0.0): links on it (APP_URL's) reach
 * nobody else, so a podcast app cannot fetch a transcript from them.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === "[::1]" ||
    host === "0.0.0.0"
  );
}

/** A `<podcast:transcript … />` element cut between its attributes, where a narrow screen may wrap it. */
export function tagParts(tag: string): string[] {
  return tag.split(/ (?=[a-z]+=")/);
}

/** A published transcript's public page, on this site. */
export function publicPagePath(slug: string): string {
  return `/t/${encodeURIComponent(slug)}`;
}

/**
 * What a history row offers for publishing, for a finished transcript (null for one in progress or failed):
 * `published`, its public page (and Unpublish) while the caller has it published; Publish otherwise, with what
 * POST /v1/publish takes for it.
 */
export interface HistoryPublishing {
  url: string;
  lang: string;
  published: { slug: string; url: string } | null;
}

export function historyPublishing(entry: TranscriptionEntry): HistoryPublishing | null {
  // The stored transcript's source (also an upload's or an episode's).
  const url = entry.source_url ?? canonicalSourceUrl(entry.source, entry.video_id);
  if (!entry.complete || !url || !entry.lang) return null;
  const slug = entry.published_slug;
  return { url, lang: entry.lang, published: slug ? { slug, url: publicPagePath(slug) } : null };
}
