/**
 * Speakers a podcast's SRT names in its text: `Travis: When you first get…` at the start of the cue where
 * the speaker changes, nothing on the cues that follow (they are the same speaker's). Read conservatively,
 * as a label only when it looks like one:
 * - at the very start of a cue, a short name: one to three words, each starting with a capital letter (or a
 *   number after the first: `Speaker 2:`), at most 40 characters, then `:` and more text (`Dr. Jane Doe:`,
 *   `GILON:`, `Leo Dion (host):` with its role; not `10:30`, not `the host:`);
 * - not a word that opens a remark (`Note:`, `Update:`, `Warning:`…);
 * - and either after a sentence's end (or as the first cue), or a name the file uses as a label at least
 *   twice: a `Note:`-like word inside a running sentence is text.
 * The label leaves the cue's text; each cue from there to the next label gets its name.
 */
import { endsSentence } from "@/lib/formats/paragraphs";

import type { Cue } from "./text";

const WORD = "\\p{Lu}[\\p{L}\\p{M}'’.-]*";
/** A role after the name, as transcript tools write it: `Leo Dion (host):`. */
const ROLE = "\\([\\p{L}\\p{M}'’. -]{1,20}\\)";
const LABEL = new RegExp(`^(${WORD}(?: (?:${WORD}|\\d{1,3})){0,2}(?: ${ROLE})?):\\s+(?=\\S)`, "u");
const MAX_LABEL_CHARS = 40;

/** Words that open a remark rather than name a person. */
const NOT_NAMES = new Set(
  [
    "note",
    "notes",
    "nb",
    "n.b.",
    "ps",
    "p.s.",
    "update",
    "edit",
    "warning",
    "caution",
    "important",
    "tip",
    "example",
    "source",
    "sources",
    "summary",
    "disclaimer",
    "transcript",
    "chapter",
    "part",
    "step",
    "question",
    "answer",
    "quote",
    "title",
    "subject",
    "re",
    "fyi",
    "link",
    "links",
    "music",
    "intro",
    "outro",
    "break",
    "sponsor",
    "sponsors",
    "ad",
    "ads",
    "advertisement",
    "interlude",
    "section",
    "segment",
    "topic",
    "topics",
    "chapters",
    "timestamps",
    "http",
    "https",
  ].map((w) => w.toLowerCase()),
);

/** Whether `name` reads as a person's label (`Jerod Santo`, `Leo Dion (host)`), not a remark's or a section's word. */
export function isLabelName(name: string): boolean {
  return labelOf(`${name}: .`) === name;
}

function labelOf(text: string): string | null {
  const m = LABEL.exec(text);
  if (!m) return null;
  const name = m[1]!;
  if (name.length > MAX_LABEL_CHARS || NOT_NAMES.has(name.replace(/ \(.*\)$/, "").toLowerCase())) return null;
  return name;
}

/**
 * The cues with their `Name:` labels read as speakers (see the file comment). `known`: names that count as
 * labels wherever they open a cue (an author's correction of a transcript that already names them). `breaks`:
 * cues that end a turn (a section heading): no one's words, and whoever speaks next is named again.
 */
export function namedTurns(
  cues: readonly Cue[],
  known: ReadonlySet<string> = new Set(),
  breaks: ReadonlySet<number> = new Set(),
): Cue[] {
  const labels = cues.map((c) => labelOf(c.text));
  const uses = new Map<string, number>();
  for (const name of labels) if (name !== null) uses.set(name, (uses.get(name) ?? 0) + 1);
  let speaker: string | undefined;
  return cues.map((cue, i) => {
    if (breaks.has(i)) {
      speaker = undefined;
      return cue;
    }
    const name = labels[i];
    const isLabel =
      name != null && (known.has(name) || (uses.get(name) ?? 0) >= 2 || i === 0 || endsSentence(cues[i - 1]!.text));
    if (isLabel) speaker = name;
    if (speaker === undefined) return cue;
    const out: Cue = { ...cue, speaker };
    if (isLabel) {
      out.text = cue.text.slice(LABEL.exec(cue.text)![0].length);
      // The label is no word of the speech: word times (a manual track has none) would no longer match.
      delete out.words;
    }
    return out;
  });
}
