// Browser side of export destinations (the dashboard's Exports page): a folder on the server or a Notion database
// each new, corrected or followed transcript is delivered to (GET/POST /v1/exports/destinations, DELETE …/{id}).

import { apiFetch } from "@/lib/browser/api";
import { formatDateTime } from "@/lib/browser/dates";

export interface DestinationView {
  id: string;
  kind: "folder" | "notion";
  name: string;
  path: string | null;
  database_id: string | null;
  has_token: boolean;
  state: "ok" | "failing" | "disabled";
  enabled: boolean;
  disabled_reason: string | null;
  last_error: string | null;
  last_error_at: string | null;
  failing_since: string | null;
  next_attempt_at: string | null;
  last_delivered_at: string | null;
  deliveries: { pending: number; delivered: number; kept: number; failed: number };
  last_note: string | null;
  created_at: string;
}

export type NewDestination =
  | { kind: "folder"; name?: string; path: string }
  | { kind: "notion"; name?: string; database_id: string; token: string };

export const DESTINATIONS_KEY = ["export-destinations"] as const;
/** How often the page asks again while it is open: a delivery's outcome shows without a reload. */
export const DESTINATIONS_POLL_MS = 5_000;

export const fetchDestinations = () =>
  apiFetch<{ destinations: DestinationView[] }>("/v1/exports/destinations").then((r) => r.destinations);
export const createDestination = (input: NewDestination) =>
  apiFetch<DestinationView>("/v1/exports/destinations", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
export const deleteDestination = (id: string) =>
  apiFetch<null>(`/v1/exports/destinations/${encodeURIComponent(id)}`, { method: "DELETE" });

/** Where it writes: the folder under the server's export root, or the Notion database. */
export function destinationTarget(destination: Pick<DestinationView, "kind" | "path" | "database_id">): string {
  return destination.kind === "folder" ? `Folder ${destination.path}` : `Notion database ${destination.database_id}`;
}

/** Its transcripts by state, the empty ones left out: "3 delivered, 1 waiting". */
export function deliveryCounts({ deliveries }: Pick<DestinationView, "deliveries">): string {
  const parts = [
    [deliveries.delivered, "delivered"],
    [deliveries.pending, "waiting"],
    [deliveries.kept, "kept as you edited them"],
    [deliveries.failed, "given up"],
  ] as const;
  const said = parts.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
  return said.length > 0 ? said.join(", ") : "Nothing delivered yet";
}

/** Why it is not delivering, in a sentence, or null while it is. */
export function destinationProblem(
  destination: Pick<DestinationView, "state" | "disabled_reason" | "last_error" | "failing_since" | "next_attempt_at">,
  when: (iso: string) => string = formatDateTime,
): string | null {
  if (destination.state === "disabled") return `Stopped: ${destination.disabled_reason ?? "disabled"}`;
  if (destination.state !== "failing") return null;
  const since = destination.failing_since ? ` since ${when(destination.failing_since)}` : "";
  const next = destination.next_attempt_at ? ` Tried again at ${when(destination.next_attempt_at)}.` : "";
  const why = (destination.last_error ?? "the last attempt failed").replace(/[.\s]+$/, "");
  return `Failing${since}: ${why}.${next}`;
}
