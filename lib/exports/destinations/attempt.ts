// One attempt of a claimed delivery (its `attempts` already counts this one), recorded only while this runner
// still holds its lease. A correction queued during the attempt (a higher `generation`) leaves the row due again.
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Outbound } from "@/lib/http/outbound";
import { retryDelayMs } from "./backoff";
import { deliverNote, DeliveryFailure, type Delivered } from "./deliver-note";

export type ExportOutcome = "delivered" | "kept" | "retry" | "failed" | "lost";

export async function attemptExport(
  db: Db,
  outbound: Outbound,
  id: string,
  owner: string,
): Promise<ExportOutcome | null> {
  const delivery = await db.exportDelivery.findUnique({ where: { id }, include: { destination: true } });
  if (!delivery || delivery.leaseOwner !== owner) return null;
  const { destination } = delivery;
  const now = () => new Date();
  let result: Delivered | DeliveryFailure;
  try {
    result = destination.disabledAt
      ? new DeliveryFailure(`The destination is disabled: ${destination.disabledReason ?? "disabled"}`, false)
      : await deliverNote(destination, delivery, outbound, Date.now() + env().EXPORT_ATTEMPT_TIMEOUT_MS);
  } catch (error) {
    result = error instanceof DeliveryFailure ? error : new DeliveryFailure(String(error), true);
  }
  const at = now();
  const mine = { id, leaseOwner: owner };
  if (!(result instanceof DeliveryFailure)) {
    const done = {
      leaseOwner: null,
      leaseUntil: null,
      lastAttemptAt: at,
      lastError: result.note,
      remoteRef: result.remoteRef,
      remoteDigest: result.remoteDigest,
    };
    return db.$transaction(async (tx) => {
      const finished = await tx.exportDelivery.updateMany({
        where: { ...mine, generation: delivery.generation },
        data: {
          ...done,
          status: result.status,
          deliveredGeneration: delivery.generation,
          deliveredAt: at,
          nextAttemptAt: null,
        },
      });
      if (finished.count === 0) {
        const again = await tx.exportDelivery.updateMany({
          where: mine,
          data: { ...done, status: "pending", attempts: 0, nextAttemptAt: at },
        });
        if (again.count === 0) return "lost" as const;
      }
      await tx.exportDestination.updateMany({
        where: { id: destination.id },
        data: { failingSince: null, retryAt: null, lastDeliveredAt: at },
      });
      return result.status;
    });
  }
  const outOfAttempts = delivery.attempts >= env().EXPORT_MAX_ATTEMPTS;
  const retry = result.retryable && !outOfAttempts;
  const retryAt = new Date(at.getTime() + retryDelayMs(delivery.attempts, result.retryAfterMs));
  return db.$transaction(async (tx) => {
    const saved = await tx.exportDelivery.updateMany({
      where: mine,
      data: {
        leaseOwner: null,
        leaseUntil: null,
        lastAttemptAt: at,
        lastError: result.message,
        status: retry ? "pending" : "failed",
        nextAttemptAt: retry ? retryAt : null,
      },
    });
    if (saved.count === 0) return "lost" as const;
    // The destination is backed off as a whole: its other notes wait as long as this one, and it says why.
    await tx.exportDestination.update({
      where: { id: destination.id },
      data: {
        failingSince: destination.failingSince ?? at,
        lastError: result.message,
        lastErrorAt: at,
        retryAt: retry ? retryAt : null,
      },
    });
    return retry ? ("retry" as const) : ("failed" as const);
  });
}
