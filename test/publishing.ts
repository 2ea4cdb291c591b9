import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { captionSegments, parseCaptions } from "@/lib/captions/parse";
import type { PrismaClient } from "@/lib/generated/prisma/client";

// Transcripts to publish, for the publishing tests, the e2e seed and the bench. The segments are the real
// TED "Grit" captions (test/fixtures/captions/kyamashiro.grit.en.xml, see the README there for the source).

export const GRIT_VIDEO_ID = "H14bBuluwB8";

export function gritSegments() {
  const xml = readFileSync(
    fileURLToPath(new URL("./fixtures/captions/kyamashiro.grit.en.xml", import.meta.url)),
    "utf8",
  );
  return captionSegments(parseCaptions(xml, "transcript"), "manual");
}

/** Fresh eleven-character YouTube video ids: `prefix`, a count, four random characters. */
export function videoIds(prefix: string): () => string {
  let count = 0;
  return () =>
    `${prefix}${String(++count).padStart(7 - prefix.length, "0")}${Math.random().toString(36).slice(2, 6)}`
      .slice(0, 11)
      .padEnd(11, "x");
}

export interface SeedOptions {
  platform?: string;
  videoId?: string;
  lang?: string;
  title?: string | null;
  sourceUrl?: string;
  /** The history entry's state: "done" is complete. */
  state?: string;
}

/** A cached transcript and the user's history entry for it (as POST /v1/transcript leaves them). */
export async function seedTranscript(db: PrismaClient, userId: string, options: SeedOptions = {}) {
  const platform = options.platform ?? "youtube";
  const videoId = options.videoId ?? GRIT_VIDEO_ID;
  const lang = options.lang ?? "en";
  const segments = gritSegments();
  const duration = Math.ceil(segments.at(-1)?.end ?? 0);
  const transcript = await db.transcript.upsert({
    where: { platform_videoId_lang_origin_variant: { platform, videoId, lang, origin: "captions", variant: "" } },
    update: {},
    create: {
      platform,
      videoId,
      lang,
      origin: "captions",
      captionKind: "manual",
      title:
        options.title === undefined
          ? "Grit: the power of passion and perseverance | Angela Lee Duckworth"
          : options.title,
      sourceUrl: options.sourceUrl ?? `https://www.youtube.com/watch?v=${videoId}`,
      durationSeconds: duration,
      segments: segments as object[],
    },
  });
  const state = options.state ?? "done";
  await db.transcription.create({
    data: {
      userId,
      platform,
      videoId,
      lang,
      origin: "captions",
      transcriptId: state === "done" ? transcript.id : null,
      state,
      durationSeconds: duration,
      totalSeconds: duration,
    },
  });
  return transcript;
}
