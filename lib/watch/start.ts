import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";
import { s3Config } from "@/lib/uploads/s3";
import { watchSettings } from "./settings";
import { WatchFolder } from "./watch-folder";

export interface RunningWatch {
  folder: WatchFolder;
  /** Stops after the round in progress. */
  stop(): Promise<void>;
}

/**
 * Starts reading WATCH_DIR every WATCH_POLL_MS when it is set (the app's background start, `npm run worker`);
 * null when it is not, or when uploads go to S3 (the watch copies each recording into the local upload store).
 */
export function startWatchFolder(): RunningWatch | null {
  const settings = watchSettings(env());
  if (!settings) return null;
  if (s3Config()) {
    log.error("watch folder: WATCH_DIR is set but uploads go to S3 (S3_BUCKET); the watch folder needs local uploads");
    return null;
  }
  const folder = new WatchFolder(settings);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const loop = () => {
    round = folder
      .tick()
      .then(
        (report) => {
          if (report.submitted || report.noted || report.written)
            log.info({ ...report, refused: report.refused.length }, "watch folder: a round");
        },
        (error: unknown) => log.error({ err: error, dir: settings.dir }, "watch folder: the folder could not be read"),
      )
      .then(() => {
        if (!stopped) timer = setTimeout(loop, settings.pollMs).unref();
      });
  };
  loop();
  log.info({ dir: settings.dir, formats: settings.formats }, "watch folder: watching");
  return {
    folder,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
