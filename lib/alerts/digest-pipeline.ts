import { z } from "zod";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Pipeline } from "@/lib/jobs/pipeline";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event";
import { alertEvent, type AlertMatchedOut } from "@/lib/alerts/events";
import { mailMatches } from "@/lib/alerts/mail";

const context = z.object({ alertId: z.string() });
type DigestContext = z.infer<typeof context>;

/**
 * The day's digest of an alert past its cap: every held match in one `alert.matched` event (`digest: true`) and
 * one e-mail, queued by the first match held that day and due when the day ends. Nothing when the alert was
 * paused or deleted meanwhile.
 */
export const alertDigestPipeline: Pipeline<DigestContext> = {
  name: "alerts-digest",
  context,
  maxAttempts: 3,
  steps: [
    {
      name: "send",
      async run(ctx) {
        const db = await getDb();
        const sent = await db.$transaction(async (tx) => {
          const [alert] = await tx.$queryRaw<
            { id: string; name: string; query: string; userId: string; email: boolean; createdById: string | null }[]
          >`SELECT "id", "name", "query", "userId", "email", "createdById" FROM "Alert"
             WHERE "id" = ${ctx.alertId} AND "pausedAt" IS NULL FOR UPDATE`;
          if (!alert) return null;
          const held = await tx.alertMatch.findMany({
            where: { alertId: alert.id, delivery: { path: ["held"], equals: true } },
            orderBy: { createdAt: "asc" },
          });
          if (held.length === 0) return null;
          const matches = held.map((m) => m.moments as unknown as AlertMatchedOut);
          const webhooks = await emitWebhookEvent(tx, {
            userId: alert.userId,
            payload: alertEvent(alert, matches, true),
          });
          await tx.alertMatch.updateMany({
            where: { id: { in: held.map((m) => m.id) } },
            data: { delivery: { webhooks, email: alert.email ? "digest" : "off" } as Prisma.InputJsonValue },
          });
          return { alert, matches };
        });
        if (sent?.alert.email) await mailMatches(sent.alert, sent.matches, true);
      },
    },
  ],
  async onFailure() {},
};
