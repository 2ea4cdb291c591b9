import type { ExportDestination } from "@/lib/generated/prisma/client";
import type { DestinationOut } from "./schemas";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface DeliveryCounts {
  pending: number;
  delivered: number;
  kept: number;
  failed: number;
}

export const NO_DELIVERIES: DeliveryCounts = { pending: 0, delivered: 0, kept: 0, failed: 0 };

/** A destination as the API shows it: never its token, only that one is stored. */
export function serializeDestination(
  destination: ExportDestination,
  counts: DeliveryCounts = NO_DELIVERIES,
  lastNote: string | null = null,
): DestinationOut {
  const folder = destination.kind === "folder";
  return {
    id: destination.id,
    kind: folder ? "folder" : "notion",
    name: destination.name,
    path: folder ? destination.target : null,
    database_id: folder ? null : destination.target,
    has_token: destination.secretCipher !== null,
    state: destination.disabledAt ? "disabled" : destination.failingSince ? "failing" : "ok",
    enabled: destination.disabledAt === null,
    disabled_reason: destination.disabledReason,
    last_error: destination.failingSince ? destination.lastError : null,
    last_error_at: destination.failingSince ? iso(destination.lastErrorAt) : null,
    failing_since: iso(destination.failingSince),
    next_attempt_at: destination.failingSince ? iso(destination.retryAt) : null,
    last_delivered_at: iso(destination.lastDeliveredAt),
    deliveries: counts,
    last_note: lastNote,
    created_at: destination.createdAt.toISOString(),
  };
}
