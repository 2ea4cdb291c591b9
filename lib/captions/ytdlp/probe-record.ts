/**
 * The yt-dlp probe's findings kept beside the install they describe (.venv, where scripts/install-yt-dlp.sh puts
 * yt-dlp and deno's cache), so that the processes one install starts close together (the app, its job workers, a
 * cluster's workers, a restart) run yt-dlp and deno once between them, not once each: a probe is a Python start
 * and a deno start. An answer is used only while it is younger than the probe's own
 * time to live and every file it came from is unchanged: an update (`npm run ytdlp:update`) writes a new yt-dlp, so
 * the next start probes again. Best effort: a folder that cannot be written, or a record that cannot be read,
 * means the probe runs, as it did without one.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

interface ProbeRecord<T> {
  key: string;
  at: number;
  findings: T;
}

/** The record of the project's own yt-dlp (.venv/bin/yt-dlp), or null for any other (YTDLP_PATH, PATH's). */
export function probeRecordFile(ytdlp: string, cwd: string = process.cwd()): string | null {
  // Whole paths, not a join onto `.venv`: the build's file tracing would take a folder of its own for all of .venv.
  return ytdlp === path.join(cwd, ".venv", "bin", "yt-dlp") ? path.join(cwd, ".venv", "ytdlp-probe.json") : null;
}

/** Each path with its size, change time and inode; a path that is missing is named as missing. */
export function filesKey(paths: readonly (string | null)[]): string {
  return JSON.stringify(
    paths.map((file) => {
      if (!file) return null;
      try {
        const { size, mtimeMs, ctimeMs, ino } = statSync(file);
        return [file, size, mtimeMs, ctimeMs, ino];
      } catch {
        return [file, "missing"];
      }
    }),
  );
}

/** The findings recorded under `key`, when younger than `maxAgeMs`, as read (the caller checks their shape); else null. */
export function recallProbe(file: string, key: string, maxAgeMs: number, now: number = Date.now()): unknown {
  try {
    const record = JSON.parse(readFileSync(file, "utf8")) as ProbeRecord<unknown>;
    const age = now - record.at;
    return record.key === key && age >= 0 && age <= maxAgeMs ? record.findings : null;
  } catch {
    return null;
  }
}

/** Records `findings` under `key`, whole or not at all (a reader never sees half a file). */
export function recordProbe<T>(file: string, key: string, findings: T, now: number = Date.now()): void {
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, JSON.stringify({ key, at: now, findings } satisfies ProbeRecord<T>));
    renameSync(partial, file);
  } catch {
    // not writable here: the next start probes again
  }
}
