import { env } from "@/lib/env";
import type { Alert, AlertMatch } from "@/lib/generated/prisma/client";
import type { AlertMatchedOut } from "@/lib/alerts/events";
import type { Delivery } from "@/lib/alerts/record-match";
import type { AlertMatchOut, AlertMode, AlertOut, AlertScopeKind } from "@/lib/alerts/schemas";

export const feedUrl = (token: string) => new URL(`/alerts/${token}/feed.xml`, env().APP_URL).href;

export function serializeAlert(alert: Alert, unread: number): AlertOut {
  return {
    id: alert.id,
    name: alert.name,
    query: alert.query,
    mode: alert.mode as AlertMode,
    closeness: alert.mode === "meaning" ? alert.closeness : null,
    scope: {
      kind: alert.scopeKind as AlertScopeKind,
      team_id: alert.scopeKind === "team" ? (alert.scopeIds[0] ?? null) : null,
      follow_ids: alert.scopeKind === "follows" ? alert.scopeIds : [],
    },
    email: alert.email,
    paused: alert.pausedAt !== null,
    feed_url: feedUrl(alert.feedToken),
    unread,
    created_at: alert.createdAt.toISOString(),
  };
}

/** `visible` false: its transcript is out of the alert's reach now, so what it said and its name are not shown. */
export function serializeMatch(match: AlertMatch, visible: boolean): AlertMatchOut {
  const stored = match.moments as unknown as AlertMatchedOut;
  const delivery = match.delivery as unknown as Partial<Delivery>;
  return {
    id: match.id,
    alert_id: match.alertId,
    transcript_id: match.transcriptId,
    title: visible ? match.title : null,
    platform: stored.platform,
    source_url: visible ? stored.source_url : null,
    moments: visible ? stored.moments : [],
    matched_at: match.createdAt.toISOString(),
    digest: match.digest,
    delivery: { webhooks: delivery.webhooks ?? 0, email: delivery.email ?? "off" },
    read: match.readAt !== null,
  };
}
