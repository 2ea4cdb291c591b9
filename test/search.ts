import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { captionSegments, parseCaptions } from "@/lib/captions/parse";
import type { PrismaClient } from "@/lib/generated/prisma/client";

// Real caption tracks for the search tests and the bench: the TED "Grit" talk (English, manual) and
// mempool's promo video (Chinese, manual; test/fixtures/captions/README.md gives both sources).

export type Segments = { start: number; end: number; text: string }[];

export function captionTrack(file: string, format: "transcript" | "vtt"): Segments {
  const body = readFileSync(fileURLToPath(new URL(`./fixtures/captions/${file}`, import.meta.url)), "utf8");
  return captionSegments(parseCaptions(body, format), "manual");
}

export const gritTrack = () => captionTrack("kyamashiro.grit.en.xml", "transcript");
export const mempoolChineseTrack = () => captionTrack("mempool.promo.zh.vtt", "vtt");

let counter = 0;

/** A stored transcript of `segments` and, for each of `userIds`, a complete history entry pointing at it. */
export async function storeTranscript(
  db: PrismaClient,
  options: { segments: Segments; lang: string; title: string; platform?: string; userIds?: string[] },
) {
  counter += 1;
  const platform = options.platform ?? "youtube";
  const videoId = `s${counter.toString(36)}${Math.random().toString(36).slice(2, 11)}`.slice(0, 11).padEnd(11, "x");
  const duration = Math.ceil(options.segments.at(-1)?.end ?? 0);
  const transcript = await db.transcript.create({
    data: {
      platform,
      videoId,
      lang: options.lang,
      origin: "captions",
      captionKind: "manual",
      title: options.title,
      sourceUrl:
        platform === "youtube" ? `https://www.youtube.com/watch?v=${videoId}` : `https://example.com/${videoId}`,
      durationSeconds: duration,
      segments: options.segments as object[],
    },
  });
  const entries = [];
  for (const userId of options.userIds ?? []) {
    entries.push(
      await db.transcription.create({
        data: {
          userId,
          platform,
          videoId,
          lang: options.lang,
          origin: "captions",
          transcriptId: transcript.id,
          state: "done",
          durationSeconds: duration,
          totalSeconds: duration,
        },
      }),
    );
  }
  return { transcript, entries };
}

/**
 * Corrections written straight into "TranscriptRevision" (as a test seeds them), indexed for search as a save
 * has its own indexed (lib/edits/revision-index.ts): the newest of each (user, transcript), step after step until
 * none answers 'more' (a step cuts a range or indexes what is cut, never both).
 */
export async function indexCorrections(db: Pick<PrismaClient, "$queryRawUnsafe">): Promise<void> {
  for (;;) {
    const states = await db.$queryRawUnsafe<{ state: string }[]>(
      `SELECT verbatim_index_revision_step(r."id", 2147483647) AS state FROM "TranscriptRevision" r WHERE r."indexedAt" IS NULL ORDER BY r."createdAt", r."id"`,
    );
    if (!states.some(({ state }) => state === "more")) return;
  }
}
