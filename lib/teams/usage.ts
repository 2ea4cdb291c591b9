import { getDb } from "@/lib/db/client";
import { requirePerson, roleIn } from "@/lib/membership/access";
import type { TeamUsageOut } from "@/lib/teams/schemas";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { UsageWindow } from "@/lib/usage/allowance";
import { usagePlan, usedSeconds } from "@/lib/usage/charge";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";

const HOUR_MS = 3_600_000;

/**
 * GET /v1/teams/{team_id}/usage (admins): what the team's allowance was charged this period, and who it was for: per
 * member, per team key and for former members together, the history entries asked for in it (Transcription.actorId,
 * teamKeyId) and those entries' seconds, which are what each entry was charged. What no row holds (entries no person
 * or key asked for, entries deleted since) is `other_seconds`, so the rows add up to the charge.
 */
export async function teamUsage(teamId: string, personId: string | null): Promise<TeamUsageOut> {
  const person = requirePerson(personId);
  const db = await getDb();
  await roleIn(db, teamId, person, TEAM_ACTIONS.readUsage);
  const plan = await usagePlan(db, teamId);
  const { start, end } = plan.window;
  const [used, byActor, byKey, members, keys] = await Promise.all([
    usedSeconds(db, teamId, plan.window),
    memberUsage(db, teamId, plan.window),
    keyUsage(db, teamId, plan.window),
    db.membership.findMany({
      where: { teamId },
      select: { userId: true, user: { select: { email: true } } },
      orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    }),
    db.teamKey.findMany({
      where: { teamId },
      select: { id: true, name: true, prefix: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
  ]);
  const none = { requests: 0, seconds: 0 };
  const memberRows = members.map((member) => {
    const usage = byActor.get(member.userId) ?? none;
    byActor.delete(member.userId);
    return { user_id: member.userId, email: member.user.email, used_seconds: usage.seconds, requests: usage.requests };
  });
  const keyRows: NonNullable<TeamUsageOut["keys"]> = keys.map((key) => {
    const usage = byKey.get(key.id) ?? none;
    byKey.delete(key.id);
    return {
      key_id: key.id,
      name: key.name,
      prefix: key.prefix,
      used_seconds: usage.seconds,
      requests: usage.requests,
    };
  });
  const revoked = total(byKey.values());
  if (revoked.requests > 0)
    keyRows.push({ key_id: null, name: null, prefix: null, used_seconds: revoked.seconds, requests: revoked.requests });
  const former = total(byActor.values());
  const listed =
    memberRows.reduce((sum, row) => sum + row.used_seconds, 0) +
    keyRows.reduce((sum, row) => sum + row.used_seconds, 0) +
    former.seconds;
  return {
    period_start: start.toISOString(),
    period_end: end.toISOString(),
    used_seconds: used,
    members: memberRows,
    keys: keyRows,
    former_members: { used_seconds: former.seconds, requests: former.requests },
    other_seconds: used - listed,
  };
}

function total(rows: Iterable<{ requests: number; seconds: number }>) {
  let requests = 0;
  let seconds = 0;
  for (const row of rows) {
    requests += row.requests;
    seconds += row.seconds;
  }
  return { requests, seconds };
}

/**
 * Per team key, the requests and seconds of the team's entries not in error created in `window` by a key (no person
 * behind them). Read from the entries over the team's `("userId", "createdAt")` history index: keys' entries are
 * not in "MemberUsageHour", which is per person.
 */
async function keyUsage(
  db: Prisma.TransactionClient,
  teamId: string,
  { start, end }: UsageWindow,
): Promise<Map<string, { requests: number; seconds: number }>> {
  const rows = await db.transcription.groupBy({
    by: ["teamKeyId"],
    where: {
      userId: teamId,
      actorId: null,
      teamKeyId: { not: null },
      state: { not: "error" },
      createdAt: { gte: start, lt: end },
    },
    _sum: { totalSeconds: true },
    _count: { _all: true },
  });
  return new Map(
    rows.map((row) => [row.teamKeyId!, { requests: row._count._all, seconds: row._sum.totalSeconds ?? 0 }]),
  );
}

/**
 * Per actor, the requests and seconds of the team's entries not in error created in `window`: its whole UTC hours
 * from "MemberUsageHour" (a trigger keeps it), its partial first and last hours (a paid period starts at any
 * second) from the entries themselves, so the read is as long as the period, not as the library.
 */
async function memberUsage(
  db: Prisma.TransactionClient,
  teamId: string,
  { start, end }: UsageWindow,
): Promise<Map<string, { requests: number; seconds: number }>> {
  const firstHour = new Date(Math.ceil(start.getTime() / HOUR_MS) * HOUR_MS);
  const endHour = new Date(Math.floor(end.getTime() / HOUR_MS) * HOUR_MS);
  const hours = firstHour < endHour;
  const edges = hours
    ? [{ createdAt: { gte: start, lt: firstHour } }, { createdAt: { gte: endHour, lt: end } }]
    : [{ createdAt: { gte: start, lt: end } }];
  const [counted, direct] = await Promise.all([
    hours
      ? db.memberUsageHour.groupBy({
          by: ["actorId"],
          where: { userId: teamId, hour: { gte: firstHour, lt: endHour } },
          _sum: { requests: true, seconds: true },
        })
      : [],
    db.transcription.groupBy({
      by: ["actorId"],
      where: { userId: teamId, actorId: { not: null }, state: { not: "error" }, OR: edges },
      _sum: { totalSeconds: true },
      _count: { _all: true },
    }),
  ]);
  const usage = new Map<string, { requests: number; seconds: number }>();
  const add = (actorId: string | null, requests: number, seconds: number) => {
    if (actorId === null) return;
    const row = usage.get(actorId) ?? { requests: 0, seconds: 0 };
    usage.set(actorId, { requests: row.requests + requests, seconds: row.seconds + seconds });
  };
  for (const row of counted) add(row.actorId, row._sum.requests ?? 0, row._sum.seconds ?? 0);
  for (const row of direct) add(row.actorId, row._count._all, row._sum.totalSeconds ?? 0);
  return usage;
}
