import type { Word } from "./types";

/** One chunk's words, already shifted to the whole file's clock. */
export interface ChunkWords {
  /** Where the chunk starts in the whole file, seconds. */
  start: number;
  /** Where the chunk ends in the whole file, seconds. */
  end: number;
  words: Word[];
}

/** The same word heard in both chunks is at most this far apart in time. */
const SAME_WORD_SECONDS = 1;
/** Words this close to the overlap still count as in it (timestamps wobble at chunk edges). */
const EDGE_SECONDS = 0.5;
/** Tolerated overlap between the last kept word and the next chunk's first word. */
const TOUCH_SECONDS = 0.05;

function normalize(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * Joins the words of consecutive, overlapping chunks into one sequence without duplicates.
 *
 * In each overlap the two transcriptions are aligned by their words: the longest run of equal words
 * (ignoring case and punctuation) heard at about the same time in both. The cut goes through the middle of
 * that run, so the words before it come from the earlier chunk and the words after it from the later one,
 * away from the chunk edges where audio was cut mid-word. Without such a run the cut is at the middle of
 * the overlap, and the later chunk's words that start before the earlier chunk's last kept word ends are
 * dropped; when only one chunk heard words in the overlap, those are kept. Start times come out
 * non-decreasing.
 */
export function stitchChunks(chunks: readonly ChunkWords[]): Word[] {
  let out: Word[] = [];
  let prevEnd = -Infinity;
  for (const chunk of chunks) {
    const next = chunk.words.filter((w) => w.text.trim());
    if (out.length === 0) {
      out = [...next];
      prevEnd = chunk.end;
      continue;
    }
    const overlapStart = chunk.start;
    const overlapEnd = prevEnd;
    prevEnd = chunk.end;

    if (overlapEnd <= overlapStart) {
      const lastEnd = out.at(-1)!.end;
      out.push(...next.filter((w) => w.start >= lastEnd - TOUCH_SECONDS));
      continue;
    }

    const cut = alignedCut(out, next, overlapStart, overlapEnd);
    if (cut) {
      out = out.slice(0, cut.keepPrev).concat(next.slice(cut.fromNext));
      continue;
    }
    const prevHeard = out.some((w) => w.end > overlapStart);
    const nextHeard = next.some((w) => w.start < overlapEnd);
    if (!prevHeard || !nextHeard) {
      // Only one side heard anything in the overlap: keep it, and the later chunk from there on.
      const lastEnd = out.at(-1)!.end;
      out.push(...next.filter((w) => w.start >= lastEnd - TOUCH_SECONDS));
      continue;
    }
    const middle = (overlapStart + overlapEnd) / 2;
    const kept = out.filter((w) => w.start < middle);
    const from = kept.length ? kept.at(-1)!.end - TOUCH_SECONDS : -Infinity;
    out = kept.concat(next.filter((w) => w.start >= from));
  }
  return dropOutOfOrder(out);
}

function alignedCut(
  prev: readonly Word[],
  next: readonly Word[],
  overlapStart: number,
  overlapEnd: number,
): { keepPrev: number; fromNext: number } | null {
  let firstTail = prev.length;
  while (firstTail > 0 && prev[firstTail - 1].end > overlapStart - EDGE_SECONDS) firstTail--;
  let headEnd = 0;
  while (headEnd < next.length && next[headEnd].start < overlapEnd + EDGE_SECONDS) headEnd++;
  if (firstTail === prev.length || headEnd === 0) return null;

  const prevKeys: string[] = [];
  for (let a = firstTail; a < prev.length; a++) prevKeys[a] = normalize(prev[a].text);
  const nextKeys = next.slice(0, headEnd).map((w) => normalize(w.text));
  const middle = (overlapStart + overlapEnd) / 2;
  let best: { a: number; b: number; k: number; distance: number } | null = null;
  for (let a = firstTail; a < prev.length; a++) {
    for (let b = 0; b < headEnd; b++) {
      let k = 0;
      while (
        a + k < prev.length &&
        b + k < headEnd &&
        prevKeys[a + k] !== "" &&
        prevKeys[a + k] === nextKeys[b + k] &&
        Math.abs(prev[a + k].start - next[b + k].start) <= SAME_WORD_SECONDS
      ) {
        k++;
      }
      if (k === 0) continue;
      const centre = (prev[a].start + prev[a + k - 1].end) / 2;
      const distance = Math.abs(centre - middle);
      if (!best || k > best.k || (k === best.k && distance < best.distance)) best = { a, b, k, distance };
    }
  }
  if (!best) return null;
  const half = Math.ceil(best.k / 2);
  return { keepPrev: best.a + half, fromNext: best.b + half };
}

/** Drops words that start before the previous kept word (and fixes end < start). */
function dropOutOfOrder(words: readonly Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    const last = out.at(-1);
    if (last && w.start < last.start) continue;
    out.push(w.end < w.start ? { ...w, end: w.start } : w);
  }
  return out;
}
