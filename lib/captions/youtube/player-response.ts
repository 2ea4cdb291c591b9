/**
 * Reads a raw InnerTube `/player` response (any client): what YouTube decided about playing the video,
 * its metadata and caption tracks. Pure: no I/O. The chain (provider.ts) decides what to do next.
 */
import { chaptersFromDescription } from "../chapters";
import { SourceError, type Chapter } from "../types";

export interface RawTrack {
  baseUrl: string;
  languageCode: string;
  name: string;
  auto: boolean;
  vssId: string | null;
  /** Marked `exp=xpe`: YouTube sends an empty body for it unless a PO token is appended. */
  needsPot: boolean;
}

export interface PlayerDetails {
  videoId: string | null;
  title: string | null;
  durationSeconds: number;
  channel: string | null;
  publishedAt: string | null;
  chapters: Chapter[];
  tracks: RawTrack[];
}

export type PlayerVerdict =
  /** Playable; tracks may be empty (captions disabled) or need a token. */
  | { kind: "ok"; details: PlayerDetails }
  /** The bot check datacenter addresses get: another exit (proxy) or client may pass. */
  | { kind: "blocked"; reason: string }
  /** This client may not play it (UNPLAYABLE and the like); another client may. */
  | { kind: "unplayable"; reason: string }
  /** No client will do better: removed, private, age-restricted, live. */
  | { kind: "final"; error: SourceError };

const AGE_STATUSES = new Set(["AGE_VERIFICATION_REQUIRED", "AGE_CHECK_REQUIRED", "CONTENT_CHECK_REQUIRED"]);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** Text of a YouTube "text" object: {simpleText} or {runs: [{text}]}. */
export function textOf(v: unknown): string {
  const o = obj(v);
  if (typeof o.simpleText === "string") return o.simpleText;
  if (Array.isArray(o.runs))
    return o.runs.map((r) => (typeof obj(r).text === "string" ? (obj(r).text as string) : "")).join("");
  return "";
}

/** The reason YouTube gives, from `reason` or the error screen's subreason. */
function reasonOf(ps: Json): string {
  const direct = str(ps.reason);
  const screen = obj(obj(ps.errorScreen).playerErrorMessageRenderer);
  const sub = textOf(screen.subreason).trim();
  return (direct ?? (textOf(screen.reason).trim() || sub)).trim();
}

function tracksOf(response: Json): RawTrack[] {
  const list = obj(obj(response.captions).playerCaptionsTracklistRenderer).captionTracks;
  if (!Array.isArray(list)) return [];
  const out: RawTrack[] = [];
  for (const item of list) {
    const t = obj(item);
    const baseUrl = str(t.baseUrl);
    const languageCode = str(t.languageCode);
    if (!baseUrl || !languageCode) continue;
    out.push({
      baseUrl,
      languageCode,
      name: textOf(t.name),
      auto: t.kind === "asr",
      vssId: str(t.vssId),
      needsPot: /[?&]exp=xpe(?:&|$)/.test(baseUrl),
    });
  }
  return out;
}

function detailsOf(response: Json): PlayerDetails {
  const vd = obj(response.videoDetails);
  const mf = obj(obj(response.microformat).playerMicroformatRenderer);
  const seconds = Number(vd.lengthSeconds ?? mf.lengthSeconds);
  const durationSeconds = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0;
  const description = str(vd.shortDescription) ?? (textOf(mf.description) || null);
  return {
    videoId: str(vd.videoId),
    title: str(vd.title) ?? (textOf(mf.title) || null),
    durationSeconds,
    channel: str(vd.author) ?? str(mf.ownerChannelName),
    publishedAt: str(mf.publishDate) ?? str(mf.uploadDate),
    chapters: chaptersFromDescription(description, durationSeconds),
    tracks: tracksOf(response),
  };
}

function err(code: ConstructorParameters<typeof SourceError>[0], message: string): PlayerVerdict {
  return { kind: "final", error: new SourceError(code, message) };
}

/**
 * Playability → verdict. LOGIN_REQUIRED means three things, told apart by YouTube's reason (the
 * session asks for hl=en): private, the bot check, the age gate.
 */
export function readPlayerResponse(raw: unknown): PlayerVerdict {
  const response = obj(raw);
  const ps = obj(response.playabilityStatus);
  const status = str(ps.status) ?? "";
  const reason = reasonOf(ps);
  const vd = obj(response.videoDetails);

  if (status === "OK") {
    if (vd.isLive === true || vd.isUpcoming === true) {
      return err(
        "live_not_finished",
        "This YouTube video is a live stream or premiere that has not finished; its transcript can be made once it has ended.",
      );
    }
    return { kind: "ok", details: detailsOf(response) };
  }
  if (status === "ERROR") {
    return err(
      "video_unavailable",
      `This YouTube video is unavailable${reason ? ` (YouTube says: "${reason}")` : ""}: it was removed, or the id is wrong.`,
    );
  }
  if (status === "LOGIN_REQUIRED" && /\bprivate\b/i.test(reason))
    return err("video_unavailable", "This YouTube video is private.");
  if (status === "LOGIN_REQUIRED" && /\bbot\b/i.test(reason)) return { kind: "blocked", reason };
  if (status === "LOGIN_REQUIRED" || AGE_STATUSES.has(status)) {
    return err("age_restricted", "This YouTube video is age-restricted: YouTube only shows it to signed-in adults.");
  }
  if (status === "LIVE_STREAM_OFFLINE" || vd.isUpcoming === true) {
    return err(
      "live_not_finished",
      `This YouTube video is a live stream or premiere that has not started or finished${reason ? ` (YouTube says: "${reason}")` : ""}; ask again after it has ended.`,
    );
  }
  if (status === "") return { kind: "unplayable", reason: "YouTube answered without a playability status." };
  return { kind: "unplayable", reason: reason || status.toLowerCase().replace(/_/g, " ") };
}
