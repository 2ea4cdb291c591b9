import type { JobResponse, TranscriptResponse } from "@/lib/transcripts/schemas";

// What a model reads: a short header (title, source, language, length) and the transcript as
// "[hh:mm:ss] text" lines, one per segment; rendered formats (srt, vtt, md, text) are given as they are.

/** Seconds → "hh:mm:ss" (always with hours, so lines align and sort). */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return [h, m, s].map((n) => String(n).padStart(2, "0")).join(":");
}

export function transcriptText(transcript: TranscriptResponse): string {
  const header = [
    `# ${transcript.title ?? transcript.video_id}`,
    `Source: ${transcript.source_url}`,
    `Language: ${transcript.lang} (${transcript.source === "asr" ? "speech recognition" : `${transcript.caption_kind ?? "platform"} captions`})`,
    `Duration: ${clock(transcript.duration_seconds)}`,
    ...(transcript.channel ? [`Channel: ${transcript.channel}`] : []),
    ...(transcript.chapters.length > 0 ? [`Chapters: ${transcript.chapters.map((c) => `[${clock(c.start)}] ${c.title}`).join("; ")}`] : []),
  ];
  const body = transcript.segments ? transcript.segments.map((segment) => `[${clock(segment.start)}] ${segment.text}`).join("\n") : (transcript.content ?? "");
  return `${header.join("\n")}\n\n${body}`;
}

/** How to continue with a job that is not finished yet. */
export function pendingJobText(job: Pick<JobResponse, "job_id" | "status" | "stage" | "progress">): string {
  const progress = Math.round(job.progress * 100);
  return [
    `The transcript is being made by speech recognition (job ${job.job_id}: ${job.status}${job.stage ? `, ${job.stage}` : ""}, ${progress}%).`,
    `Call get_job with job_id "${job.job_id}" in a minute or two to get it; longer recordings take longer.`,
  ].join("\n");
}
