import { Prisma, type Transcript } from "@/lib/generated/prisma/client";
import { normalizeSegments } from "@/lib/formats";
import { boundStoredWords } from "@/lib/formats/stored-words";
import { pickTrack } from "@/lib/captions/pick-track";
import type { CaptionProvider } from "@/lib/captions/types";
import type { ParsedSource } from "@/lib/sources";
import { ApiError } from "@/lib/http/errors";
import { isErrorCode } from "@/lib/http/error-codes";
import { mapUpstreamErrors } from "@/lib/captions/upstream-errors";
import { countUpstream } from "@/lib/observability/metrics";
import { upstreamErrorCode } from "@/lib/captions/count-upstream";
import { fetchShared } from "@/lib/transcripts/shared-fetch";
import { findStoredTranscript, storeTranscript, type StoredTranscript } from "@/lib/transcripts/store-transcript";

export interface CaptionDeps {
  providerFor(platform: ParsedSource["platform"]): CaptionProvider | null;
  /** How long a stored transcript is served without asking the platform again. */
  cacheHours: number;
}

/** What the platform said about an item without captions in the language, for the job's title and reservation. */
export interface ItemInfo {
  title: string | null;
  durationSeconds: number;
  /** The caption languages it has (MCP lists them rather than starting recognition). */
  languages?: { code: string; name: string; kind: string }[];
}

/** The captions in the language, or that there are none (speech recognition then takes over). */
export type CaptionLookup =
  | ({ kind: "transcript" } & StoredTranscript)
  | { kind: "no_captions"; info: ItemInfo | null };

type Fetched = Transcript | { kind: "no_captions"; info: ItemInfo | null };

// Requests for the same new video share one upstream fetch: in this process through this map, across
// processes through shared-fetch.ts.
const inFlight = new Map<string, Promise<Fetched>>();

/** The caption transcript for (source, lang), fetched from the platform when missing or stale. */
export async function getCaptionTranscript(
  userId: string,
  source: ParsedSource,
  lang: string,
  deps: CaptionDeps,
): Promise<CaptionLookup> {
  const stored = await findStoredTranscript(userId, source, lang, "captions");
  if (stored && isFresh(stored.transcript, deps)) return { kind: "transcript", ...stored };

  const flightKey = `${source.platform}:${source.videoId}:${lang}`;
  let pending = inFlight.get(flightKey);
  if (!pending) {
    pending = fetchShared<Fetched>(flightKey, {
      findFresh: async () => {
        const fresh = await findStoredTranscript(userId, source, lang, "captions");
        return fresh && isFresh(fresh.transcript, deps) ? fresh.transcript : null;
      },
      fetch: () => fetchAndStore(source, lang, deps),
      encodeFailure,
      decodeFailure,
      // "No captions" is stored nowhere: the requests waiting in other processes are handed it.
      encodeUnstored: (fetched) => (isNoCaptions(fetched) ? { noCaptions: { info: fetched.info } } : null),
      decodeUnstored: (unstored) => ({
        kind: "no_captions",
        info: (unstored as { noCaptions: { info: ItemInfo | null } }).noCaptions.info,
      }),
    }).finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, pending);
  }
  const fetched = await pending;
  return isNoCaptions(fetched) ? fetched : { kind: "transcript", transcript: fetched, inHistory: false };
}

function isNoCaptions(fetched: Fetched): fetched is Extract<Fetched, { kind: "no_captions" }> {
  return "kind" in fetched && fetched.kind === "no_captions";
}

function isFresh(transcript: Transcript, deps: CaptionDeps): boolean {
  return Date.now() - transcript.fetchedAt.getTime() < deps.cacheHours * 3_600_000;
}

/** What the requests waiting in other processes are told: the same answer this one got. */
function encodeFailure(error: unknown): object | null {
  if (error instanceof ApiError) return { api: { code: error.code, detail: error.detail, headers: error.headers } };
  return null;
}

function decodeFailure(failure: unknown): Error {
  const f = failure as { api?: { code: string; detail: string; headers: Record<string, string> } };
  if (f.api && isErrorCode(f.api.code)) return new ApiError(f.api.code, f.api.detail, f.api.headers);
  return new Error("The caption fetch failed in another process");
}

async function fetchAndStore(source: ParsedSource, lang: string, deps: CaptionDeps): Promise<Fetched> {
  const provider = deps.providerFor(source.platform);
  if (!provider) return { kind: "no_captions", info: null };
  const found = await mapUpstreamErrors(async () => {
    const info = await provider.getInfo(source);
    const track = pickTrack(info.tracks, lang);
    if (!track) {
      const languages = info.tracks.map((t) => ({ code: t.lang, name: t.name, kind: t.kind }));
      return { info, track, segments: [], languages };
    }
    const segments = boundStoredWords(normalizeSegments(await provider.fetchTrack(info, track)));
    return { info, track, segments, languages: undefined };
  }).catch((error: unknown) => {
    countUpstream(source.platform, "lookup", upstreamErrorCode(error));
    throw error;
  });
  const { info, track, segments, languages } = found;
  countUpstream(source.platform, "lookup", segments.length > 0 ? "ok" : "no_captions");
  if (!track || segments.length === 0) {
    return {
      kind: "no_captions",
      info: { title: info.title, durationSeconds: info.durationSeconds, ...(languages ? { languages } : {}) },
    };
  }
  const durationSeconds = Math.ceil(info.durationSeconds || segments[segments.length - 1].end);
  return storeTranscript(
    { platform: source.platform, videoId: source.videoId, lang, origin: "captions" },
    {
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
    },
  );
}
