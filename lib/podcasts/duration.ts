/**
 * Episode durations as feeds write them (`itunes:duration`: seconds, `MM:SS` or `HH:MM:SS`, sometimes with
 * fractions or stray spaces) → one form: `HH:MM:SS` (hours not capped at 24, e.g. `101:02:03`).
 * Anything else (empty, words, negative, over 1,000 hours) → null.
 */
export function normalizeDuration(raw: unknown): string | null {
  if (typeof raw !== "string" && typeof raw !== "number") return null;
  const text = String(raw).trim();
  if (text === "" || text.length > 32) return null;
  const parts = text.split(":");
  if (parts.length > 3 || !parts.every((p) => /^\d+(\.\d+)?$/.test(p.trim()))) return null;
  const numbers = parts.map((p) => Number(p.trim()));
  // Only the last field may carry a fraction, and minutes/seconds fields after the first stay under 60.
  if (numbers.slice(0, -1).some((n) => !Number.isInteger(n))) return null;
  if (numbers.slice(1).some((n) => n >= 60)) return null;
  const seconds = Math.round(numbers.reduce((total, n) => total * 60 + n, 0));
  if (!Number.isFinite(seconds) || seconds > 1000 * 3600) return null;
  return formatSeconds(seconds);
}

/** 3723 → "01:02:03". */
export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.floor(total));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** "01:02:03" → 3723 (the inverse, for estimates). */
export function durationSeconds(normalized: string | null): number {
  if (!normalized) return 0;
  return normalized.split(":").reduce((total, n) => total * 60 + Number(n), 0);
}
