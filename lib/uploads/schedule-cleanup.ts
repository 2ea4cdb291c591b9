import { removeStaleTempDirs } from "@/lib/media";
import { deleteExpiredUploads } from "@/lib/uploads/resolve-upload";

const HOUR_MS = 60 * 60 * 1000;

async function sweep(): Promise<void> {
  try {
    const uploads = await deleteExpiredUploads();
    const temp = await removeStaleTempDirs();
    if (uploads.deleted || uploads.failed || temp.length) {
      console.log(`[cleanup] expired uploads deleted ${uploads.deleted} (failed ${uploads.failed}), stale temp dirs ${temp.length}`);
    }
  } catch (error) {
    console.error("[cleanup] failed:", error);
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
