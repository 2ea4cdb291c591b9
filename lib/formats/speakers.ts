import type { Segment } from "./types";

// Speakers as a source names them (a podcast's own transcript: Podcasting 2.0 JSON `speaker`, HTML `<cite>`,
// WebVTT `<v Name>`, an SRT `Name:`): kept per segment, never guessed (docs/decisions/0014-speakers-the-source-names.md).
// A name is short text; a transcript names few people. Past either bound the file or correction is refused
// with a sentence saying which, rather than stored: a name is repeated on every segment and in every output.

/** The longest speaker name kept, in characters (after whitespace is collapsed). */
export const MAX_SPEAKER_CHARS = 100;
/** The most distinct speakers one transcript names. */
export const MAX_SPEAKERS = 200;

/** Why these segments' speakers are over the bounds, as a sentence; null when they are within them. */
export function speakerBoundsProblem(segments: readonly Pick<Segment, "speaker">[]): string | null {
  const names = new Set<string>();
  for (const segment of segments) {
    const name = segment.speaker;
    if (name === undefined) continue;
    if (typeof name !== "string") return "A speaker's name must be text.";
    if (name.length > MAX_SPEAKER_CHARS)
      return `A speaker's name is ${name.length.toLocaleString("en-US")} characters long; Verbatim keeps names of at most ${MAX_SPEAKER_CHARS}.`;
    names.add(name);
    if (names.size > MAX_SPEAKERS)
      return `The transcript names more than ${MAX_SPEAKERS} speakers; Verbatim keeps at most ${MAX_SPEAKERS} for one transcript.`;
  }
  return null;
}

/** The distinct speakers of a transcript, in order of first appearance. */
export function speakersOf(segments: readonly Pick<Segment, "speaker">[]): string[] {
  const names = new Set<string>();
  for (const segment of segments) if (typeof segment.speaker === "string") names.add(segment.speaker);
  return [...names];
}
