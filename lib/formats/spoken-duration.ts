// Durations as people say them, for everything a person reads: the dashboard, the CLI, error sentences and
// emails. Pure (no imports), so the CLI and the browser bundle use the same function.

/**
 * "1 h 11 min", "4 min 3 s", "45 s", "2 h": hours and minutes from an hour up (seconds dropped, rounded to
 * the nearest minute), minutes and seconds under it.
 */
export function spokenDuration(seconds: number): string {
  const total = Math.max(0, Math.round(Number.isFinite(seconds) ? seconds : 0));
  if (total >= 3600) {
    const minutes = Math.round(total / 60);
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    return m > 0 ? `${h} h ${m} min` : `${h} h`;
  }
  const m = Math.floor(total / 60);
  const s = total % 60;
  if (m === 0) return `${s} s`;
  return s > 0 ? `${m} min ${s} s` : `${m} min`;
}
