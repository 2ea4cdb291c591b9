import { getDb } from "@/lib/db/client";
import { requirePerson, roleIn } from "@/lib/teams/access";
import type { TeamUsageOut } from "@/lib/teams/schemas";
import { usagePlan, usedSeconds } from "@/lib/usage/charge";

/**
 * GET /v1/teams/{team_id}/usage (admins): what the team's allowance was charged this period, and per member the
 * history entries they asked for in it (Transcription.actorId) and those entries' seconds. Members who left keep
 * nothing here; their entries stay the team's.
 */
export async function teamUsage(teamId: string, personId: string | null): Promise<TeamUsageOut> {
  const person = requirePerson(personId);
  const db = await getDb();
  await roleIn(db, teamId, person, "admin");
  const plan = await usagePlan(db, teamId);
  const { start, end } = plan.window;
  const [used, byActor, members] = await Promise.all([
    usedSeconds(db, teamId, plan.window),
    db.transcription.groupBy({
      by: ["actorId"],
      where: { userId: teamId, actorId: { not: null }, createdAt: { gte: start, lt: end }, state: { not: "error" } },
      _sum: { totalSeconds: true },
      _count: { _all: true },
    }),
    db.membership.findMany({
      where: { teamId },
      select: { userId: true, user: { select: { email: true } } },
      orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    }),
  ]);
  const usage = new Map(byActor.map((row) => [row.actorId, row]));
  return {
    period_start: start.toISOString(),
    period_end: end.toISOString(),
    used_seconds: used,
    members: members.map((member) => ({
      user_id: member.userId,
      email: member.user.email,
      used_seconds: usage.get(member.userId)?._sum.totalSeconds ?? 0,
      requests: usage.get(member.userId)?._count._all ?? 0,
    })),
  };
}
