import { getDb } from "@/lib/db/client";
import { ALERT_ROLE } from "@/lib/membership/access";
import { RequestValidationError } from "@/lib/http/validation";
import { followOf } from "@/lib/follows/create-follow";
import type { Alert } from "@/lib/generated/prisma/client";
import { ALERT_MAX_FOLLOWS, type AddShowRequest, type AlertOut } from "@/lib/alerts/schemas";
import { findOwn, teamRoleNow, unreadOf, type AlertCaller } from "@/lib/alerts/manage-alerts";
import { serializeAlert } from "@/lib/alerts/serializers";

const WATCHES: Record<string, string> = {
  library: "the account's library",
  team: "a team's library",
  public: "every published transcript",
};

function refused(loc: (string | number)[], msg: string, input: unknown): RequestValidationError {
  return new RequestValidationError([
    { type: "value_error", loc, msg: `Value error, ${msg}`, input, ctx: { error: {} } },
  ]);
}

function takesNoMore(alert: Pick<Alert, "id" | "scopeKind" | "scopeIds">): RequestValidationError | null {
  if (alert.scopeKind !== "follows")
    return refused(
      ["path", "id"],
      `this alert watches ${WATCHES[alert.scopeKind] ?? alert.scopeKind}, not chosen follows: only an alert of chosen follows takes a show`,
      alert.id,
    );
  if (alert.scopeIds.length >= ALERT_MAX_FOLLOWS)
    return refused(["path", "id"], `this alert watches ${ALERT_MAX_FOLLOWS} follows, the most one alert may`, alert.id);
  return null;
}

/**
 * POST /v1/alerts/{id}/follows: a show (a feed, an Apple Podcasts link, a YouTube channel or playlist) into an alert
 * of chosen follows, in one step: followed first when the account does not follow it yet (from now on, nothing
 * backfilled), then watched by the alert. Giving it a show it watches already changes nothing.
 */
export async function addShowToAlert(caller: AlertCaller, id: string, request: AddShowRequest): Promise<AlertOut> {
  const db = await getDb();
  const before = await findOwn(db, caller.userId, id);
  const early = takesNoMore(before);
  if (early) throw early;
  const { follow } = await followOf(caller.userId, {
    url: request.url,
    lang: request.lang,
    format: "json",
    backfill: 0,
  });
  const updated = await db.$transaction(async (tx) => {
    await teamRoleNow(tx, caller, ALERT_ROLE);
    // The row lock: two shows given at once are both kept, and the limit holds.
    await tx.$queryRaw`SELECT "id" FROM "Alert" WHERE "id" = ${id} FOR UPDATE`;
    const alert = await findOwn(tx, caller.userId, id);
    if (alert.scopeIds.includes(follow.id)) return alert;
    const full = takesNoMore(alert);
    if (full) throw full;
    return tx.alert.update({ where: { id }, data: { scopeIds: { push: follow.id } } });
  });
  return serializeAlert(updated, (await unreadOf(db, [id])).get(id) ?? 0);
}
