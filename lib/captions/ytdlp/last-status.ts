// What the last yt-dlp probe found, kept apart from the probe itself (status.ts, which loads yt-dlp's runner and
// the outbound stack with it), so /health reads it without loading them.

export const STATUS_TTL_MS = 10 * 60_000;

export interface YtDlpStatus {
  /** "2026.08.19"; null when yt-dlp could not be run. */
  version: string | null;
  /** Days since that version's date; null without a version. */
  ageDays: number | null;
  /** The runtime yt-dlp found ("deno-2.9.6"), or null. */
  jsRuntime: string | null;
  /** "yt-dlp-ejs 0.8.0", "deno npm cache", or null when YouTube's challenges cannot be solved. */
  solver: string | null;
  /** What is missing and what to do, for the operator; empty when all is in place. */
  problems: string[];
}

let known: YtDlpStatus | null = null;
let probedAt = 0;
let inFlight: Promise<YtDlpStatus> | null = null;

/** The known answer while it is at most STATUS_TTL_MS old; else runs `probe` (once at a time) and keeps its answer. */
export function keepProbe(probe: () => Promise<YtDlpStatus>): Promise<YtDlpStatus> {
  if (known && Date.now() - probedAt <= STATUS_TTL_MS) return Promise.resolve(known);
  inFlight ??= probe()
    .then((status) => {
      known = status;
      probedAt = Date.now();
      return status;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** True when ytdlpStatus() would start a probe: none has ended within STATUS_TTL_MS and none is running. */
export function ytdlpProbeDue(): boolean {
  return inFlight === null && (known === null || Date.now() - probedAt > STATUS_TTL_MS);
}

/** The last probe's answer without waiting or probing (null before the first one ends). */
export function lastYtDlpStatus(): YtDlpStatus | null {
  return known;
}

/** /health's fields (strings only, as the contract says). */
export function ytdlpHealthFields(status: YtDlpStatus | null): Record<string, string> {
  if (!status) return { ytdlp: "checking" };
  return {
    ytdlp: status.version ?? "missing",
    ...(status.ageDays !== null ? { ytdlp_age_days: String(status.ageDays) } : {}),
    ytdlp_js_runtime: status.jsRuntime ?? "missing",
    ytdlp_challenge_solver: status.solver ?? "missing",
    ...(status.problems.length > 0 ? { ytdlp_note: status.problems.join("; ") } : {}),
  };
}
