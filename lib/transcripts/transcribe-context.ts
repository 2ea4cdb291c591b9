import path from "node:path";
import { z } from "zod";

import { env } from "@/lib/env";
import { PLATFORMS } from "@/lib/sources";

/** What a transcription job carries from step to step (checkpointed with the job). */
export const transcribeContextSchema = z.object({
  userId: z.string().min(1),
  platform: z.enum(PLATFORMS),
  videoId: z.string().min(1),
  canonicalUrl: z.string().min(1),
  /** A language tag, or "auto": the recogniser detects it and the transcript is stored under the one heard. */
  lang: z.string().min(1),
  /** Terms the recogniser should expect (lib/asr/vocabulary.ts); kept with the job so a retry asks the same. */
  vocabulary: z.array(z.string()).optional(),
  /** Where the audio comes from: a platform page (yt-dlp), a direct audio URL, or an upload. */
  origin: z.enum(["platform", "audio_url", "upload"]),
  /** The upload's object path (origin "upload"). */
  objectPath: z.string().optional(),
  title: z.string().nullish(),
  /** `title` is the audio URL's file name: the file's own title tag (ffprobe) replaces it once probed. */
  titleFromFile: z.boolean().optional(),
  /** Who published it, when the requester knew (an imported episode's show). */
  channel: z.string().nullish(),
  /** Start of the usage period the reservation was charged to (ISO); the job row's periodStart wins. */
  periodStart: z.iso.datetime({ offset: true }),
  /** The request's own `webhook_url`, told of this job's outcome besides the account's endpoints. */
  webhookUrl: z.string().optional(),
  /** The follow (lib/follows) whose new item this is: named in the job's webhook events. */
  followId: z.string().optional(),
  // Step outputs:
  audioPath: z.string().optional(),
  /** Asynchronous providers: the provider the audio was uploaded to, its URL for the audio, when (ISO), and the transcript id. */
  asrProvider: z.string().optional(),
  asrUploadUrl: z.string().optional(),
  asrUploadedAt: z.string().optional(),
  asrTranscriptId: z.string().optional(),
  durationSeconds: z.number().nonnegative().optional(),
  /** Speech regions the voice-activity detector found (lib/asr/vad.ts); absent when it could not run. */
  speech: z.array(z.object({ start: z.number(), end: z.number() })).optional(),
  /**
   * What the asynchronous provider was sent: these pieces of the audio joined (lib/asr/speech-audio.ts),
   * so its times are mapped back with them; absent: the whole audio. Kept with the upload it describes.
   */
  asrPieces: z.array(z.object({ start: z.number(), end: z.number() })).optional(),
  transcriptId: z.string().optional(),
});

export type TranscribeContext = z.infer<typeof transcribeContextSchema>;

/** Work files of a job live here until it finishes, so a retried step can find them. */
export function workDir(jobId: string): string {
  return path.resolve(env().DATA_DIR, "work", jobId);
}
