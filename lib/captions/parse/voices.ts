/**
 * WebVTT voice spans (`<v Name>`, `<v.class Name>`, closed by `</v>` or, as the format allows, by the cue's end):
 * who speaks, where a file names them. A cue with one voice keeps its text and words and gains a `speaker`; a
 * cue with several voices (`<v Alice>Hi</v> <v Bob>Hello`) becomes one cue per voice, in order, its time shared
 * between them by the length of their text (a file gives no time inside such a cue). Text outside every voice
 * goes with the voice before it (`<v Bob>it's</v> a test` is Bob's). A `<v` that never closes its tag (`<v Bob hello` with no `>`) is no voice: it stays text.
 */
import { withSpeaker } from "./podcast";
import { type Cue, cleanText, cueAt, joinCaptionText } from "./text";

const VOICE = /<v(?:\.[^\s<>]*)?(?:[ \t]+([^<>]*))?>|<\/v\s*>/gi;
const HAS_VOICE = /<v[\s.>]/i;

interface Piece {
  speaker: string;
  text: string;
}

/** The voices of one cue's rows, in order, with their text; null when the cue names no voice. */
export function voicePieces(rows: readonly string[]): Piece[] | null {
  const raw = rows.join("\n");
  if (!HAS_VOICE.test(raw)) return null;
  const pieces: Piece[] = [];
  let speaker = "";
  let from = 0;
  const flush = (to: number) => {
    const text = raw.slice(from, to);
    const last = pieces.at(-1);
    if (last && last.speaker === speaker) last.text += text;
    else pieces.push({ speaker, text });
  };
  VOICE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = VOICE.exec(raw)) !== null) {
    flush(m.index);
    speaker = m[0][1] === "/" ? "" : (m[1] ?? "");
    from = m.index + m[0].length;
  }
  flush(raw.length);
  const cleaned = pieces.map((p) => ({ speaker: cleanText(p.speaker), text: cleanText(p.text) }));
  if (!cleaned.some((p) => p.speaker !== "")) return null;
  // Text outside every voice belongs to the voice before it (or, at the start, the one after).
  const out: Piece[] = [];
  let pending = "";
  for (const p of cleaned) {
    if (p.text === "") continue;
    const last = out.at(-1);
    if (p.speaker === "") {
      if (last) last.text = joinCaptionText(last.text, p.text);
      else pending = joinCaptionText(pending, p.text);
    } else if (last && last.speaker === p.speaker) last.text = joinCaptionText(last.text, p.text);
    else {
      out.push({ speaker: p.speaker, text: joinCaptionText(pending, p.text) });
      pending = "";
    }
  }
  return out.length > 0 ? out : null;
}

/**
 * The cue `base` (its text and words read as for any cue) with its voices: `base` with a speaker for one
 * voice, one cue per voice for several, `base` as it is for none.
 */
export function voiceCues(rows: readonly string[], startMs: number, endMs: number, base: Cue): Cue[] {
  const pieces = voicePieces(rows);
  if (pieces === null) return [base];
  if (pieces.length === 1) return [withSpeaker(base, pieces[0]!.speaker)];
  const total = pieces.reduce((n, p) => n + p.text.length, 0);
  const span = Math.max(0, endMs - startMs);
  const cues: Cue[] = [];
  let at = 0;
  for (const piece of pieces) {
    const from = startMs + Math.round((span * at) / total);
    at += piece.text.length;
    const to = startMs + Math.round((span * at) / total);
    cues.push(withSpeaker(cueAt(from, to, piece.text), piece.speaker));
  }
  return cues;
}
