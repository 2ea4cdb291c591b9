// Plain-text rendering for people: durations and aligned tables (no borders, like gh's lists).
import { spokenDuration } from "../../lib/formats/spoken-duration";

/** A duration as people say it ("1 h 11 min", "4 min 3 s"), "-" when unknown: lib/formats/spoken-duration.ts. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "-";
  return spokenDuration(seconds);
}

/** A position in a recording, as a player shows it: "4:03", "1:11:23". */
export function timestamp(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0
    ? `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`
    : `${m}:${String(s).padStart(2, "0")}`;
}

export function date(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace("T", " ") : "-";
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(header: string[], rows: string[][], emphasise: (text: string) => string = (t) => t): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [emphasise(line(header)), ...rows.map(line)].join("\n") + "\n";
}
