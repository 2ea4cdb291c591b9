// The one way a date or a time is written on the dashboard and the public pages: "4 Mar 2025" and
// "4 Mar 2025, 14:05 UTC". Written in UTC with fixed month names, not the reader's locale or zone, so the server's
// HTML and the browser's render are the same text (no hydration mismatch) and no page says a date another way.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

const two = (n: number) => String(n).padStart(2, "0");

function asDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "4 Mar 2025" (UTC); an unreadable date is "—". */
export function formatDate(value: string | number | Date): string {
  const date = asDate(value);
  if (!date) return "—";
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** "4 Mar 2025, 14:05 UTC"; with `seconds`, "4 Mar 2025, 14:05:09 UTC" (saves a minute apart and less). */
export function formatDateTime(value: string | number | Date, { seconds = false } = {}): string {
  const date = asDate(value);
  if (!date) return "—";
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}${seconds ? `:${two(date.getUTCSeconds())}` : ""}`;
  return `${formatDate(date)}, ${time} UTC`;
}
