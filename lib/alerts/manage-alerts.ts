import { randomBytes } from "node:crypto";
import { lockUntilCommit } from "@/lib/db/advisory-lock";
import { getDb, type Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { billingConfigured } from "@/lib/billing/stripe";
import type { Alert, Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { TEAM_ACTIONS, atLeast } from "@/lib/roles/ladder";
import { ALERT_ROLE, lockTeam, roleIn } from "@/lib/membership/access";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { queryProblem } from "@/lib/search/query-terms";
import { configuredEmbedder } from "@/lib/embeddings/registry";
import type { MeaningProfile } from "@/lib/embeddings/meaning-profile";
import { alertTerms } from "@/lib/alerts/alert-terms";
import { alertCloseness } from "@/lib/alerts/closeness";
import { scopeAccount, stillVisible } from "@/lib/alerts/scope";
import type { AlertMatchOut, AlertOut, CreateAlertRequest, UpdateAlertRequest } from "@/lib/alerts/schemas";
import { serializeAlert, serializeMatch } from "@/lib/alerts/serializers";

/** Who asks: the account acted in (a person's or a team's) and the person behind the credential. */
export interface AlertCaller {
  userId: string;
  personId: string | null;
}

function invalidQuery(query: string, msg: string): RequestValidationError {
  return new RequestValidationError([
    { type: "value_error", loc: ["body", "query"], msg: `Value error, ${msg}`, input: query, ctx: { error: {} } },
  ]);
}

async function tierLimit(db: Db, userId: string): Promise<number> {
  const subscription = await db.subscription.findUnique({ where: { userId }, select: { tier: true } });
  const settings = env();
  const tier = subscription?.tier ?? "free";
  return tier === "ultra"
    ? settings.ALERT_MAX_ULTRA
    : tier === "pro"
      ? settings.ALERT_MAX_PRO
      : settings.ALERT_MAX_FREE;
}

export async function findOwn(db: Db | Prisma.TransactionClient, userId: string, id: string): Promise<Alert> {
  const alert = await db.alert.findFirst({ where: { id, userId } });
  if (!alert) throw errors.notFound("No alert with that id.");
  return alert;
}

export async function unreadOf(db: Db, alertIds: string[]): Promise<Map<string, number>> {
  if (alertIds.length === 0) return new Map();
  const rows = await db.alertMatch.groupBy({
    by: ["alertId"],
    where: { alertId: { in: alertIds }, readAt: null },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.alertId, r._count._all]));
}

/** A meaning alert's query vector, as the configured embedder makes it; 503 when search by meaning is off. */
export async function queryVector(
  query: string,
): Promise<{ vector: number[]; embedder: string; profile: MeaningProfile }> {
  const embedder = configuredEmbedder();
  if (!embedder)
    throw errors.notConfigured(
      "meaning_not_configured",
      "Search by meaning is off on this server, so an alert by meaning cannot be kept; use mode words.",
    );
  await embedder.prepare();
  const vector = await embedder.embedQuery(query);
  if (!vector) throw invalidQuery(query, "give words whose meaning can be compared");
  return { vector: [...vector], embedder: embedder.model, profile: embedder.profile };
}

/** The scope's ids, checked: a team the person is a member of, follows of the account. */
export async function checkScope(db: Db, caller: AlertCaller, scope: CreateAlertRequest["scope"]): Promise<string[]> {
  if (scope.kind === "team") {
    const teamId = scope.team_id!;
    // A person's alert over a team's library: the person's own account, and a team they are in.
    const member =
      caller.personId !== null && caller.userId === caller.personId
        ? await db.membership.findUnique({
            where: { teamId_userId: { teamId, userId: caller.personId } },
            select: { role: true },
          })
        : null;
    if (!member)
      throw errors.notFound("No team with that id that you are a member of (create the alert in your own account).");
    return [teamId];
  }
  if (scope.kind === "follows") {
    const ids = [...new Set(scope.follow_ids)];
    const found = await db.follow.count({ where: { userId: caller.userId, id: { in: ids } } });
    if (found !== ids.length) throw errors.notFound("No follow with one of those ids.");
    return ids;
  }
  return [];
}

/**
 * In a team, under the team's lock, the person's role read again (at least `needed`): a removal or a lower role that
 * commits first (lib/membership/role-loss.ts hands their alerts over under the same lock) is seen. Null: no person in
 * a team (their own account, or a team's key).
 */
export async function teamRoleNow(tx: Prisma.TransactionClient, caller: AlertCaller, needed: TeamRole) {
  if (caller.personId === null || caller.personId === caller.userId) return null;
  await lockTeam(tx, caller.userId);
  return roleIn(tx, caller.userId, caller.personId, needed);
}

function termRows(alert: Pick<Alert, "id" | "userId" | "scopeKind" | "scopeIds">, terms: string[]) {
  const account = scopeAccount(alert);
  return terms.map((term) => ({ alertId: alert.id, term, scopeAccount: account }));
}

/** Stops what an alert had queued and not sent: its pending webhook messages end as failed, with the reason. */
async function stopPending(tx: Prisma.TransactionClient, userId: string, alertId: string, why: string) {
  await tx.$executeRaw`
    UPDATE "WebhookDelivery" SET "status" = 'failed', "nextAttemptAt" = NULL, "lastError" = ${`Not sent: the alert was ${why}.`}
    WHERE "userId" = ${userId} AND "status" = 'pending' AND "eventType" = 'alert.matched'
      AND "payload"->'data'->>'alert_id' = ${alertId}`;
}

/** POST /v1/alerts. */
export async function createAlert(caller: AlertCaller, request: CreateAlertRequest): Promise<AlertOut> {
  const db = await getDb();
  const scopeIds = await checkScope(db, caller, request.scope);
  const terms = request.mode === "words" ? await alertTerms(db, request.query) : [];
  const meaning = request.mode === "meaning" ? await queryVector(request.query) : null;
  const max = await tierLimit(db, caller.userId);
  const alert = await db.$transaction(async (tx) => {
    await teamRoleNow(tx, caller, ALERT_ROLE);
    await lockUntilCommit(tx, `alerts:${caller.userId}`);
    if ((await tx.alert.count({ where: { userId: caller.userId } })) >= max)
      throw errors.conflict(
        "too_many_alerts",
        billingConfigured()
          ? `This account keeps ${max} alerts, the most its plan allows; delete one first.`
          : `This account keeps ${max} alerts, the most this server allows; delete one first.`,
      );
    const created = await tx.alert.create({
      data: {
        userId: caller.userId,
        createdById: caller.personId,
        name: request.name ?? request.query.slice(0, 100),
        query: request.query,
        mode: request.mode,
        closeness: meaning ? alertCloseness(meaning.profile, request.closeness) : null,
        ...(meaning ? { vector: meaning.vector, embedder: meaning.embedder } : {}),
        scopeKind: request.scope.kind,
        scopeIds,
        email: request.email,
        feedToken: newFeedToken(),
      },
    });
    await tx.alertTerm.createMany({ data: termRows(created, terms), skipDuplicates: true });
    return created;
  });
  return serializeAlert(alert, 0);
}

/** GET /v1/alerts: the account's alerts, newest first, with their unread counts. */
export async function listAlerts(userId: string): Promise<{ alerts: AlertOut[]; unread: number }> {
  const db = await getDb();
  const alerts = await db.alert.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  const unread = await unreadOf(
    db,
    alerts.map((a) => a.id),
  );
  return {
    alerts: alerts.map((a) => serializeAlert(a, unread.get(a.id) ?? 0)),
    unread: [...unread.values()].reduce((sum, n) => sum + n, 0),
  };
}

/** GET /v1/alerts/{id}. */
export async function getAlert(userId: string, id: string): Promise<AlertOut> {
  const db = await getDb();
  const alert = await findOwn(db, userId, id);
  return serializeAlert(alert, (await unreadOf(db, [id])).get(id) ?? 0);
}

/** PATCH /v1/alerts/{id}: rename, change the query or closeness, pause (at once) or resume, mail or not. */
export async function updateAlert(userId: string, id: string, request: UpdateAlertRequest): Promise<AlertOut> {
  const db = await getDb();
  const alert = await findOwn(db, userId, id);
  const query = request.query ?? alert.query;
  const requery = request.query !== undefined && request.query !== alert.query;
  const problem = requery && alert.mode === "words" ? queryProblem(query) : null;
  if (problem) throw invalidQuery(query, problem);
  const terms = requery && alert.mode === "words" ? await alertTerms(db, query) : null;
  const meaning = requery && alert.mode === "meaning" ? await queryVector(query) : null;
  const profile = meaning?.profile ?? configuredEmbedder()?.profile;
  const closeness =
    request.closeness !== undefined && alert.mode === "meaning" && profile
      ? alertCloseness(profile, request.closeness)
      : undefined;
  const updated = await db.$transaction(async (tx) => {
    // The row lock: a match being recorded finishes first, or sees the pause (record-match.ts).
    await tx.$queryRaw`SELECT "id" FROM "Alert" WHERE "id" = ${id} FOR UPDATE`;
    const pausing = request.paused === true && alert.pausedAt === null;
    const row = await tx.alert.update({
      where: { id },
      data: {
        ...(request.name !== undefined ? { name: request.name } : {}),
        ...(requery ? { query } : {}),
        ...(meaning ? { vector: meaning.vector, embedder: meaning.embedder } : {}),
        ...(closeness !== undefined ? { closeness } : {}),
        ...(request.email !== undefined ? { email: request.email } : {}),
        ...(request.paused !== undefined ? { pausedAt: request.paused ? (alert.pausedAt ?? new Date()) : null } : {}),
      },
    });
    if (terms) {
      await tx.alertTerm.deleteMany({ where: { alertId: id } });
      await tx.alertTerm.createMany({ data: termRows(row, terms), skipDuplicates: true });
    }
    if (pausing) await stopPending(tx, userId, id, "paused");
    return row;
  });
  return serializeAlert(updated, (await unreadOf(db, [id])).get(id) ?? 0);
}

/** DELETE /v1/alerts/{id}: gone at once, with its matches, and its unsent messages stopped. */
export async function deleteAlert(userId: string, id: string): Promise<void> {
  const db = await getDb();
  await findOwn(db, userId, id);
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Alert" WHERE "id" = ${id} FOR UPDATE`;
    await tx.alert.deleteMany({ where: { id, userId } });
    await stopPending(tx, userId, id, "deleted");
  });
}

/** A new feed secret: 32 random bytes. */
export const newFeedToken = () => randomBytes(32).toString("base64url");

/**
 * POST /v1/alerts/{id}/rotate-feed: a new feed URL, the old one gone at once. In a team, the person who saved it or
 * one who may manage the team's members (who could see every alert's URL when someone leaves).
 */
export async function rotateFeed(caller: AlertCaller & { role: TeamRole }, id: string): Promise<AlertOut> {
  const db = await getDb();
  await findOwn(db, caller.userId, id);
  const updated = await db.$transaction(async (tx) => {
    const role = (await teamRoleNow(tx, caller, TEAM_ACTIONS.read)) ?? caller.role;
    const alert = await tx.alert.findUniqueOrThrow({ where: { id } });
    const maker = caller.personId !== null && caller.personId === alert.createdById;
    if (!maker && !atLeast(role, TEAM_ACTIONS.manageMembers))
      throw errors.forbidden(
        `Only the person who saved this alert or a team ${TEAM_ACTIONS.manageMembers} may give it a new feed URL.`,
      );
    return tx.alert.update({ where: { id }, data: { feedToken: newFeedToken() } });
  });
  return serializeAlert(updated, (await unreadOf(db, [id])).get(id) ?? 0);
}

/** GET /v1/alerts/{id}/matches: the inbox of one alert, newest first (at most the 100 it keeps). */
export async function listMatches(
  userId: string,
  id: string,
  onlyUnread: boolean,
): Promise<{ matches: AlertMatchOut[]; unread: number }> {
  const db = await getDb();
  const alert = await findOwn(db, userId, id);
  const matches = await db.alertMatch.findMany({
    where: { alertId: id, ...(onlyUnread ? { readAt: null } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const visible = await stillVisible(
    db,
    alert,
    matches.map((m) => m.transcriptId),
  );
  return {
    matches: matches.map((m) => serializeMatch(m, visible.has(m.transcriptId))),
    unread: (await unreadOf(db, [id])).get(id) ?? 0,
  };
}

/** POST /v1/alerts/{id}/read: marks the given matches (or all) read. */
export async function markRead(
  userId: string,
  id: string,
  matchIds: string[] | undefined,
): Promise<{ matches: AlertMatchOut[]; unread: number }> {
  const db = await getDb();
  await findOwn(db, userId, id);
  await db.alertMatch.updateMany({
    where: { alertId: id, readAt: null, ...(matchIds ? { id: { in: matchIds } } : {}) },
    data: { readAt: new Date() },
  });
  return listMatches(userId, id, false);
}
