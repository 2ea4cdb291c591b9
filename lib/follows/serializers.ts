import type { Follow, FollowItem } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { parseFormat } from "@/lib/formats/types";
import { showPagePath } from "@/lib/publishing/show-links";
import {
  FOLLOW_ITEM_STATUSES,
  FOLLOW_PUSH_STATES,
  FOLLOW_KINDS,
  FOLLOW_STATES,
  type FollowItemOut,
  type FollowItemStatus,
  type FollowKind,
  type FollowOut,
  type FollowState,
} from "@/lib/follows/schemas";

const oneOf = <T extends string>(list: readonly T[], value: string, fallback: T): T =>
  (list as readonly string[]).includes(value) ? (value as T) : fallback;

export function serializeFollow(row: Follow): FollowOut {
  return {
    id: row.id,
    url: row.url,
    kind: oneOf<FollowKind>(FOLLOW_KINDS, row.kind, "podcast"),
    title: row.title,
    state: oneOf<FollowState>(FOLLOW_STATES, row.state, "active"),
    note: row.note,
    lang: row.lang,
    format: parseFormat(row.format) ?? "json",
    publish: row.publish,
    webhook_url: row.webhookUrl,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    next_check_at: row.state === "paused" ? null : (row.nextCheckAt?.toISOString() ?? null),
    items_seen: row.itemsSeen,
    push: row.pushHub
      ? {
          hub: row.pushHub,
          state: oneOf(FOLLOW_PUSH_STATES, row.pushState ?? "off", "off"),
          lease_ends_at: row.pushState === "active" ? (row.pushLeaseEndsAt?.toISOString() ?? null) : null,
          note: row.pushNote,
        }
      : null,
    show_url: row.showSlug ? new URL(showPagePath(row.showSlug), env().APP_URL).toString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** An item as its owner sees it; a running item whose job already ended shows the job's outcome. */
export function serializeFollowItem(
  row: FollowItem,
  job?: { status: string; transcriptId: string | null; errorMessage: string | null },
): FollowItemOut {
  let status = oneOf<FollowItemStatus>(FOLLOW_ITEM_STATUSES, row.status, "failed");
  let transcriptId = row.transcriptId;
  let note = row.note;
  if (status === "running" && job?.status === "done") {
    status = "done";
    transcriptId = job.transcriptId;
  } else if (status === "running" && job?.status === "error") {
    status = "failed";
    note = job.errorMessage;
  }
  return {
    guid: row.guid,
    title: row.title,
    url: row.url,
    status,
    note,
    job_id: row.jobId,
    transcript_id: status === "done" ? transcriptId : null,
    found_at: row.createdAt.toISOString(),
  };
}
