import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { log } from "@/lib/observability/logger";
import { personLabel, requirePerson, roleIn } from "@/lib/teams/access";
import { lockTeam } from "@/lib/teams/access";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";

/**
 * Stripe statuses of a subscription that still exists for the customer and may bill it (lib/billing/sync.ts
 * stores the newest one's status): deleting the team under one would leave a bill no one can reach.
 */
const LIVE_SUBSCRIPTION = ["active", "trialing", "past_due", "unpaid", "incomplete", "paused"];

/**
 * DELETE /v1/teams/{team_id} (the owner): the team's account and everything it owns (history, key, webhooks,
 * follows, publications, memberships, invitations, its audit trail) go by cascade. Refused while a paid
 * subscription is live: cancel it first. Answers the uploads' object paths, whose stored files the caller removes
 * (lib/uploads, a level above this one): their rows went with the team, so the expiry cleanup would never find them.
 */
export async function deleteTeam(teamId: string, personId: string | null): Promise<{ uploads: string[] }> {
  const person = requirePerson(personId);
  const db = await getDb();
  const label = await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await roleIn(tx, teamId, person, TEAM_ACTIONS.deleteTeam);
    const subscription = await tx.subscription.findUnique({
      where: { userId: teamId },
      select: { stripeSubscriptionId: true, status: true },
    });
    if (subscription?.stripeSubscriptionId && LIVE_SUBSCRIPTION.includes(subscription.status ?? ""))
      throw errors.conflict(
        "subscription_active",
        "The team has a paid subscription: cancel it (the billing portal) and delete the team once it has ended.",
      );
    const uploads = await tx.upload.findMany({ where: { userId: teamId }, select: { objectPath: true } });
    const team = await tx.user.delete({ where: { id: teamId }, select: { slug: true } });
    return { slug: team.slug, by: await personLabel(tx, person), uploads: uploads.map((u) => u.objectPath) };
  });
  // The trail goes with the team, so its deletion is told to the operator's log.
  log.info({ teamId, slug: label.slug, by: label.by, action: "team.deleted" }, "team deleted");
  return { uploads: label.uploads };
}
