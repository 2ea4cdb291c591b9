import { SingleBar } from "cli-progress";
import type { Output } from "./output";

// Progress on stderr: a live bar (cli-progress) when interactive; otherwise one plain line each time the
// stage changes, so logs still say what happened and nothing redraws.

export interface Progress {
  /** `value` out of the bar's total; `stage` is the words beside it. */
  update(value: number, stage: string): void;
  stop(): void;
}

const live = new Set<SingleBar>();

/** Stops every live bar (restoring the cursor), for an exit in the middle of one (Ctrl-C). */
export function stopAllProgress(): void {
  for (const bar of live) bar.stop();
  live.clear();
}

export function createProgress(
  out: Output,
  label: string,
  total: number,
  unit: "percent" | "bytes" | "items" = "percent",
): Progress {
  if (!out.interactive) {
    let last = "";
    return {
      update(_value, stage) {
        if (stage === last) return;
        last = stage;
        out.info(`${label}: ${stage}`);
      },
      stop() {},
    };
  }
  const amount = unit === "bytes" ? "{value_mb}/{total_mb} MB" : unit === "items" ? "{value}/{total}" : "{percentage}%";
  const bar = new SingleBar({
    format: `${out.color.bold(label)} ${out.color.cyan("{bar}")} ${amount} ${out.color.dim("{stage}")}`,
    barsize: 24,
    barCompleteChar: "\u2588",
    barIncompleteChar: "\u2591",
    hideCursor: true,
    clearOnComplete: true,
    stream: process.stderr,
  });
  const payload = (value: number, stage: string) => ({
    stage,
    value_mb: (value / 1e6).toFixed(1),
    total_mb: (total / 1e6).toFixed(1),
  });
  bar.start(total, 0, payload(0, ""));
  live.add(bar);
  return {
    update: (value, stage) => bar.update(Math.min(value, total), payload(value, stage)),
    stop: () => {
      live.delete(bar);
      bar.stop();
    },
  };
}
