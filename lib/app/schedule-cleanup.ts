import { removeStaleTempDirs } from "@/lib/media";
import { deleteExpiredUploads } from "@/lib/uploads/resolve-upload";
import { log } from "@/lib/observability/logger";
import { writeKeptAuditLines } from "@/lib/membership/audit-outbox";
import { maintainSearchTables } from "@/lib/search/search-maintenance";
import { deleteUnusedSearchTerms } from "@/lib/search/prune-terms";
import { deleteUnheldUploadTranscripts } from "@/lib/transcripts/forget-unheld";
import { deleteOldDeliveries } from "@/lib/webhooks/delete-old-deliveries";

const HOUR_MS = 60 * 60 * 1000;

async function sweep(): Promise<void> {
  try {
    const uploads = await deleteExpiredUploads();
    const temp = await removeStaleTempDirs();
    const deliveries = await deleteOldDeliveries();
    const unheldTranscripts = await deleteUnheldUploadTranscripts();
    const searchTerms = await deleteUnusedSearchTerms();
    await maintainSearchTables();
    const audit = await writeKeptAuditLines();
    if (audit.written || audit.unreadable) log.info(audit, "cleanup: audit lines kept for later written");
    if (uploads.deleted || uploads.failed || temp.length || deliveries || unheldTranscripts || searchTerms) {
      log.info(
        {
          deleted: uploads.deleted,
          failed: uploads.failed,
          staleTempDirs: temp.length,
          webhookDeliveries: deliveries,
          unheldTranscripts,
          searchTerms,
        },
        "cleanup: expired uploads, stale temp dirs, old webhook deliveries, uploads' transcripts nobody holds and unused search words removed",
      );
    }
  } catch (error) {
    log.error({ err: error }, "cleanup failed");
  }
}

/**
 * Expired uploads (UPLOAD_RETENTION_HOURS), temp files left by crashes, finished webhook deliveries past 30 days,
 * uploads' transcripts no entry holds and no page publishes, words no passage holds any more, and the audit lines
 * kept for later written; on the embedded database, the search tables vacuumed and their terms' statistics made again:
 * at start, then hourly.
 */
export function scheduleCleanup(): void {
  const globalState = globalThis as { verbatimCleanup?: NodeJS.Timeout };
  if (globalState.verbatimCleanup) return;
  void sweep();
  globalState.verbatimCleanup = setInterval(() => void sweep(), HOUR_MS);
  globalState.verbatimCleanup.unref();
}
