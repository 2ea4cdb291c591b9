// What one item is charged, in seconds of its media: the one rule the charge, the history entry and the import
// preview's figure all use, so that what the preview says an import takes is what it takes.

/** Whole seconds, rounded up per item (never down, never below zero). */
export function chargedSeconds(mediaSeconds: number): number {
  return Number.isFinite(mediaSeconds) ? Math.max(0, Math.ceil(mediaSeconds)) : 0;
}

/**
 * An item taken from a transcript rather than recognised (a platform's captions, a podcast publisher's own file):
 * its media's length where the source states it (a feed's duration), the transcript's own length where that is
 * longer or nothing is stated. The transcript alone would charge an episode whose last words come before its end
 * less than its minutes of media, and less than the preview said from the feed.
 */
export function transcriptChargeSeconds(transcriptSeconds: number, statedSeconds = 0): number {
  return chargedSeconds(Math.max(transcriptSeconds, statedSeconds));
}
