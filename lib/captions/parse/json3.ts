/**
 * YouTube json3 (`fmt=json3`):
 * `{"wireMagic":"pb3","events":[{"tStartMs":80,"dDurationMs":4040,"wWinId":1,"segs":[{"utf8":"hey"},
 * {"utf8":" guys","tOffsetMs":320}]}, {"tStartMs":2430,"dDurationMs":1690,"wWinId":1,"aAppend":1,
 * "segs":[{"utf8":"\n"}]}, ...]}`.
 *
 * Events without `segs` (window and style definitions) are skipped. Word segments carry their own
 * leading spaces, so they are joined as they are. Newline-only `aAppend` events come back as empty
 * appended cues; dedup.ts drops them.
 *
 * Word times: every seg is timed at the event's `tStartMs` plus its own `tOffsetMs` (0
 * when absent, as for an event's first word), so each of its words gets that time (text.ts timedWords).
 */
import { CaptionParseError, type Cue, type TimedPiece, cleanText, cueAt, finite, stripBom, timedWords } from "./text";

interface Json3Event {
  tStartMs?: unknown;
  dDurationMs?: unknown;
  aAppend?: unknown;
  segs?: unknown;
}

function segText(seg: unknown): string {
  return typeof seg === "object" && seg !== null && typeof (seg as { utf8?: unknown }).utf8 === "string"
    ? (seg as { utf8: string }).utf8
    : "";
}

export function parseJson3(body: string): Cue[] {
  let data: unknown;
  try {
    data = JSON.parse(stripBom(body));
  } catch {
    throw new CaptionParseError("The json3 caption track is not valid JSON.");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new CaptionParseError("The json3 caption track is not an object.");
  }
  const events = (data as { events?: unknown }).events;
  // YouTube answers `{"wireMagic":"pb3"}` for a track with nothing in it.
  if (events === undefined) return [];
  if (!Array.isArray(events)) throw new CaptionParseError("The json3 caption track has no event list.");
  const out: Cue[] = [];
  for (const raw of events as unknown[]) {
    if (typeof raw !== "object" || raw === null) continue;
    const ev = raw as Json3Event;
    if (!Array.isArray(ev.segs)) continue;
    const start = finite(ev.tStartMs);
    if (start === null) continue;
    const segs = ev.segs as unknown[];
    const text = segs.map(segText).join("");
    const append = finite(ev.aAppend) === 1 || ev.aAppend === true;
    const end = start + Math.max(0, finite(ev.dDurationMs) ?? 0);
    const pieces: TimedPiece[] = segs.map((seg) => ({
      ms: start + Math.max(0, finite((seg as { tOffsetMs?: unknown } | null)?.tOffsetMs) ?? 0),
      raw: segText(seg),
    }));
    out.push(cueAt(start, end, cleanText(text), append, timedWords(pieces, end)));
  }
  return out;
}
