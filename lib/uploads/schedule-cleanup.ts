import { removeStaleTempDirs } from "@/lib/media";
import { deleteExpiredUploads } from "@/lib/uploads/resolve-upload";
import { log } from "@/lib/observability/logger";

const HOUR_MS = 60 * 60 * 1000;

async function sweep(): Promise<void> {
  try {
    const uploads = await deleteExpiredUploads();
    const temp = await removeStaleTempDirs();
    if (uploads.deleted || uploads.failed || temp.length) {
      log.info({ deleted: uploads.deleted, failed: uploads.failed, staleTempDirs: temp.length }, "cleanup: expired uploads and stale temp dirs removed");
    }
  } catch (error) {
    log.error({ err: error }, "cleanup failed");
  }
}

/** Expired uploads (UPLOAD_RETENTION_HOURS) and temp files left by crashes: at start, then hourly. */
export function scheduleCleanup(): void {
  const globalState = globalThis as { verbatimCleanup?: NodeJS.Timeout };
  if (globalState.verbatimCleanup) return;
  void sweep();
  globalState.verbatimCleanup = setInterval(() => void sweep(), HOUR_MS);
  globalState.verbatimCleanup.unref();
}
