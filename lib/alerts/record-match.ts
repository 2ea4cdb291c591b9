import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Alert, Prisma } from "@/lib/generated/prisma/client";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event";
import { alertDigestPipeline } from "@/lib/alerts/digest-pipeline";
import { alertEvent, type AlertMatchedOut } from "@/lib/alerts/events";
import { mailMatches } from "@/lib/alerts/mail";

/** Matches (and their delivery records) each alert keeps: the newest. */
export const ALERT_KEEP_MATCHES = 100;

export interface Delivery {
  webhooks: number;
  email: "sent" | "logged" | "failed" | "off" | "digest";
  /** Past the day's cap, waiting for the day's digest. */
  held?: boolean;
}

export const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/**
 * Records that `alert` matched a transcript, once per alert and transcript (the unique row), and queues its
 * `alert.matched` webhook messages in the same transaction; then mails it. Nothing when the alert was paused or
 * deleted meanwhile (its row is locked for the write, so a pause that commits first stops it, and one that comes
 * after waits for it). Past ALERT_MAX_MATCHES_PER_DAY matches today the match is held for the day's digest.
 */
export async function recordMatch(alert: Alert, match: AlertMatchedOut): Promise<boolean> {
  const db = await getDb();
  const cap = env().ALERT_MAX_MATCHES_PER_DAY;
  const recorded = await db.$transaction(async (tx) => {
    const live = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Alert" WHERE "id" = ${alert.id} AND "pausedAt" IS NULL FOR UPDATE`;
    if (live.length === 0) return null;
    const day = startOfUtcDay(new Date());
    const today = await tx.alertMatch.count({ where: { alertId: alert.id, createdAt: { gte: day } } });
    const held = today >= cap;
    const delivery: Delivery = held ? { webhooks: 0, email: "digest", held: true } : { webhooks: 0, email: "off" };
    const created = await tx.alertMatch.createManyAndReturn({
      data: [
        {
          alertId: alert.id,
          transcriptId: match.transcript_id,
          title: match.title,
          moments: match as unknown as Prisma.InputJsonValue,
          digest: held,
          delivery: delivery as unknown as Prisma.InputJsonValue,
        },
      ],
      skipDuplicates: true,
      select: { id: true },
    });
    if (created.length === 0) return null;
    if (held) {
      // The first held match of the day queues the day's digest, due when the day ends.
      if (today === cap)
        await enqueueJob(tx, {
          userId: alert.userId,
          pipeline: alertDigestPipeline,
          context: { alertId: alert.id },
          runAt: new Date(day.getTime() + 86_400_000),
        });
    } else {
      delivery.webhooks = await emitWebhookEvent(tx, {
        userId: alert.userId,
        payload: alertEvent(alert, [match], false),
      });
      await tx.alertMatch.update({
        where: { id: created[0]!.id },
        data: { delivery: delivery as unknown as Prisma.InputJsonValue },
      });
    }
    await tx.$executeRaw`
      DELETE FROM "AlertMatch" WHERE "alertId" = ${alert.id} AND "id" NOT IN (
        SELECT "id" FROM "AlertMatch" WHERE "alertId" = ${alert.id} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${ALERT_KEEP_MATCHES})`;
    return { id: created[0]!.id, held, delivery };
  });
  if (!recorded) return false;
  if (!recorded.held && alert.email) {
    const email = await mailMatches(alert, [match], false);
    await db.alertMatch.updateMany({
      where: { id: recorded.id },
      data: { delivery: { ...recorded.delivery, email } as unknown as Prisma.InputJsonValue },
    });
  }
  return true;
}
