import { createHash } from "node:crypto";

// A note in a folder destination is the person's file as much as Verbatim's: they add their own notes to it in
// Obsidian or any editor. Verbatim's part of the body lies between two marker comments (hidden by Markdown
// renderers); on an update only that part is replaced and everything outside it is kept. A file that is exactly
// what Verbatim last wrote is replaced whole (front matter too); one the person changed whose markers are gone is
// left as it is, and the delivery says so.

export const BEGIN_MARKER =
  "<!-- verbatim:begin (Verbatim rewrites what lies between this line and verbatim:end; write your own notes outside them) -->";
export const END_MARKER = "<!-- verbatim:end -->";

const FRONT_MATTER = /^---\n[\s\S]*?\n---\n/;

/** SHA-256 of a file's text: what a delivery keeps of the file it wrote, to tell a person's edit apart. */
export function digestOf(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A note as the folder holds it: its front matter, then its body between the markers. */
export function framedNote(note: string): string {
  const front = FRONT_MATTER.exec(note)?.[0] ?? "";
  const body = note.slice(front.length).replace(/^\n+/, "").replace(/\n*$/, "\n");
  return `${front}\n${BEGIN_MARKER}\n${body}${END_MARKER}\n`;
}

export type MergeOutcome =
  /** Write `content` (a new file, or the merge of the person's file). */
  | { action: "write"; content: string; merged: boolean }
  /** The file already says this. */
  | { action: "same" }
  /** The person changed the file and Verbatim's block cannot be found: theirs is kept, and `why` says so. */
  | { action: "keep"; why: string };

/**
 * What to write for `note` where the folder holds `existing` (null: no file), Verbatim having last written the file
 * whose digest is `lastDigest` (null: never, or not known).
 */
export function mergeNote(existing: string | null, note: string, lastDigest: string | null): MergeOutcome {
  const fresh = framedNote(note);
  if (existing === null) return { action: "write", content: fresh, merged: false };
  if (existing === fresh) return { action: "same" };
  if (lastDigest !== null && digestOf(existing) === lastDigest)
    return { action: "write", content: fresh, merged: false };
  const block = blockOf(existing);
  if (!block)
    return {
      action: "keep",
      why: "The note was edited outside Verbatim's block (its verbatim:begin/verbatim:end lines are gone): your version is kept, and this transcript's update was not written.",
    };
  const inner = fresh.slice(fresh.indexOf(BEGIN_MARKER) + BEGIN_MARKER.length, fresh.lastIndexOf(END_MARKER));
  const content = existing.slice(0, block.start) + inner + existing.slice(block.end);
  return content === existing ? { action: "same" } : { action: "write", content, merged: true };
}

/** Where Verbatim's block's content lies in `text`: after its one begin line and before its one end line. */
function blockOf(text: string): { start: number; end: number } | null {
  const lines = text.split("\n");
  const begins = lines.filter((line) => line.trim().startsWith("<!-- verbatim:begin")).length;
  const ends = lines.filter((line) => line.trim() === END_MARKER).length;
  if (begins !== 1 || ends !== 1) return null;
  const beginAt = text.search(/^[ \t]*<!-- verbatim:begin[^\n]*$/m);
  const lineEnd = text.indexOf("\n", beginAt);
  const endAt = text.search(/^[ \t]*<!-- verbatim:end -->[ \t]*$/m);
  if (beginAt < 0 || lineEnd < 0 || endAt < lineEnd) return null;
  return { start: lineEnd, end: endAt };
}
