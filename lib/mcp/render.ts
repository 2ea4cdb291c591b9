import type { SearchResponse } from "@/lib/search/schemas";
import type { JobResponse } from "@/lib/transcripts/schemas";

// What a model reads besides transcripts (those are paged in transcript-page.ts): times as hh:mm:ss,
// how to continue with a job, search moments.

/** Seconds → "hh:mm:ss" (always with hours, so lines align and sort). */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return [h, m, s].map((n) => String(n).padStart(2, "0")).join(":");
}

/** How to continue with a job that is not finished yet. */
export function pendingJobText(job: Pick<JobResponse, "job_id" | "status" | "stage" | "progress">): string {
  const progress = Math.round(job.progress * 100);
  return [
    `The transcript is being made by speech recognition (job ${job.job_id}: ${job.status}${job.stage ? `, ${job.stage}` : ""}, ${progress}%).`,
    `Call get_job with job_id "${job.job_id}" in a minute or two to get it; longer recordings take longer.`,
  ].join("\n");
}

/** A snippet with its highlights in **bold**. */
export function boldHighlights(snippet: string, highlights: [number, number][]): string {
  let out = "";
  let at = 0;
  for (const [start, end] of highlights) {
    if (start < at) continue;
    out += `${snippet.slice(at, start)}**${snippet.slice(start, end)}**`;
    at = end;
  }
  return out + snippet.slice(at);
}

/** search_transcripts: one line per moment (time, title, snippet, link); at most 20 moments of ~300 characters. */
export function searchText(q: string, found: SearchResponse): string {
  const cut = found.partial ? "\nThe search ran out of time: there may be more; ask again in a few seconds." : "";
  if (found.results.length === 0)
    return `Nothing in your transcripts matches "${q}".${found.nothing_close ? " Nothing said there is close to it in meaning." : ""}${found.did_you_mean ? ` Did you mean "${found.did_you_mean}"?` : ""}${cut}`;
  const lines = found.results.map((m) => {
    const link = m.links.source ?? m.links.page ?? m.links.viewer ?? m.source_url ?? "";
    return `- [${clock(m.start)}] ${m.title ?? m.video_id ?? m.transcript_id} (${m.platform}, ${m.lang}): "${boldHighlights(m.snippet, m.highlights)}"${link ? ` ${link}` : ""}`;
  });
  const more = found.next_cursor ? `\nMore: call again with cursor "${found.next_cursor}".` : "";
  return `${found.results.length} moment(s) matching "${q}":\n${lines.join("\n")}${more}${cut}`;
}
