const PAD2: readonly string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? "0" : "") + i);

/** Formats whole seconds as `mm:ss` below one hour and `h:mm:ss` from one hour on. */
export function formatShortClock(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const rest = totalSeconds - h * 3600;
  const m = Math.floor(rest / 60);
  const s = rest - m * 60;
  return h > 0 ? h + ":" + PAD2[m] + ":" + PAD2[s] : PAD2[m] + ":" + PAD2[s];
}
