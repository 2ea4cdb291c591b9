import { getDb } from "@/lib/db/client";
import { Prisma, type Transcript } from "@/lib/generated/prisma/client";
import { normalizeSegments } from "@/lib/formats";
import { pickTrack } from "@/lib/captions/pick-track";
import type { CaptionProvider } from "@/lib/captions/types";
import type { ParsedSource } from "@/lib/sources";
import { ApiError } from "@/lib/http/errors";
import { mapUpstreamErrors } from "@/lib/transcripts/upstream-errors";
import { countUpstream } from "@/lib/observability/metrics";
import { upstreamErrorCode } from "@/lib/captions/count-upstream";
import { fetchShared } from "@/lib/transcripts/shared-fetch";
import { ASR_SETTINGS_HINT } from "@/lib/transcripts/asr-provider";

export interface CaptionDeps {
  providerFor(platform: ParsedSource["platform"]): CaptionProvider | null;
  /** How long a stored transcript is served without asking the platform again. */
  cacheHours: number;
}

// Requests for the same new video share one upstream fetch: in this process through this map, across
// processes through shared-fetch.ts.
const inFlight = new Map<string, Promise<Transcript>>();

/** No captions in the language: speech recognition takes over (or 503 when it is not configured). */
export class NoCaptionsError extends ApiError {
  constructor(
    readonly lang: string,
    /** What the platform said about the item, for the job's title and reservation. */
    readonly info: { title: string | null; durationSeconds: number } | null,
  ) {
    super(503, "asr_not_configured", `This source has no captions in '${lang}', and speech recognition is not configured on this server. ${ASR_SETTINGS_HINT}`);
  }
}

export interface StoredTranscript {
  transcript: Transcript;
  /** Whether the user already has it in their history (then asking again is free). */
  inHistory: boolean;
}

/**
 * The stored transcript and whether the user has it, in one round trip: this is the hot path for
 * repeat requests, so it is one SQL statement rather than two Prisma queries.
 */
export async function findStoredTranscript(
  userId: string,
  source: Pick<ParsedSource, "platform" | "videoId">,
  lang: string,
  origin: "captions" | "asr",
): Promise<StoredTranscript | null> {
  const db = await getDb();
  const rows = await db.$queryRaw<(Transcript & { inHistory: boolean })[]>`
    SELECT t.*, EXISTS (
      SELECT 1 FROM "Transcription" e
      WHERE e."userId" = ${userId} AND e."platform" = t."platform" AND e."videoId" = t."videoId"
        AND e."lang" = t."lang" AND e."transcriptId" = t."id"
    ) AS "inHistory"
    FROM "Transcript" t
    WHERE t."platform" = ${source.platform} AND t."videoId" = ${source.videoId} AND t."lang" = ${lang} AND t."source" = ${origin}::"TranscriptSource"`;
  if (rows.length === 0) return null;
  const { inHistory, ...transcript } = rows[0];
  return { transcript, inHistory };
}

/** The caption transcript for (source, lang), fetched from the platform when missing or stale. */
export async function getCaptionTranscript(userId: string, source: ParsedSource, lang: string, deps: CaptionDeps): Promise<StoredTranscript> {
  const stored = await findStoredTranscript(userId, source, lang, "captions");
  if (stored && isFresh(stored.transcript, deps)) return stored;

  const flightKey = `${source.platform}:${source.videoId}:${lang}`;
  let pending = inFlight.get(flightKey);
  if (!pending) {
    pending = fetchShared(flightKey, {
      findFresh: async () => {
        const fresh = await findStoredTranscript(userId, source, lang, "captions");
        return fresh && isFresh(fresh.transcript, deps) ? fresh.transcript : null;
      },
      fetch: () => fetchAndStore(source, lang, deps),
      encodeFailure,
      decodeFailure,
    }).finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, pending);
  }
  return { transcript: await pending, inHistory: false };
}

function isFresh(transcript: Transcript, deps: CaptionDeps): boolean {
  return Date.now() - transcript.fetchedAt.getTime() < deps.cacheHours * 3_600_000;
}

/** What the requests waiting in other processes are told: the same answer this one got. */
function encodeFailure(error: unknown): object | null {
  if (error instanceof NoCaptionsError) return { noCaptions: { lang: error.lang, info: error.info } };
  if (error instanceof ApiError) return { api: { status: error.status, code: error.code, detail: error.detail, headers: error.headers } };
  return null;
}

function decodeFailure(failure: unknown): Error {
  const f = failure as { noCaptions?: { lang: string; info: NoCaptionsError["info"] }; api?: { status: number; code: string; detail: string; headers: Record<string, string> } };
  if (f.noCaptions) return new NoCaptionsError(f.noCaptions.lang, f.noCaptions.info);
  if (f.api) return new ApiError(f.api.status, f.api.code, f.api.detail, f.api.headers);
  return new Error("The caption fetch failed in another process");
}

async function fetchAndStore(source: ParsedSource, lang: string, deps: CaptionDeps): Promise<Transcript> {
  const provider = deps.providerFor(source.platform);
  if (!provider) throw new NoCaptionsError(lang, null);
  const { info, track, segments } = await mapUpstreamErrors(async () => {
    const info = await provider.getInfo(source);
    const track = pickTrack(info.tracks, lang);
    if (!track) throw new NoCaptionsError(lang, { title: info.title, durationSeconds: info.durationSeconds });
    return { info, track, segments: normalizeSegments(await provider.fetchTrack(info, track)) };
  }).catch((error: unknown) => {
    countUpstream(source.platform, "lookup", error instanceof NoCaptionsError ? "no_captions" : upstreamErrorCode(error));
    throw error;
  });
  countUpstream(source.platform, "lookup", segments.length > 0 ? "ok" : "no_captions");
  if (segments.length === 0) throw new NoCaptionsError(lang, { title: info.title, durationSeconds: info.durationSeconds });
  const durationSeconds = Math.ceil(info.durationSeconds || segments[segments.length - 1].end);
  const data = {
    captionKind: track.kind,
    title: info.title,
    sourceUrl: info.canonicalUrl,
    durationSeconds,
    segments: segments as unknown as object,
    servedBy: info.servedBy ?? null,
    channel: info.channel ?? null,
    publishedAt: info.publishedAt ?? null,
    chapters: info.chapters && info.chapters.length > 0 ? (info.chapters as unknown as object) : Prisma.DbNull,
    fetchedAt: new Date(),
  };
  const db = await getDb();
  return db.transcript.upsert({
    where: { platform_videoId_lang_source: { platform: source.platform, videoId: source.videoId, lang, source: "captions" } },
    create: { platform: source.platform, videoId: source.videoId, lang, source: "captions", ...data },
    update: data,
  });
}
