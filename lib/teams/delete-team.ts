import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { log } from "@/lib/observability/logger";
import { isCurrentStatus } from "@/lib/billing/sync";
import { lockTeam, personLabel, requirePerson, roleIn } from "@/lib/membership/access";
import { TEAM_ACTIONS } from "@/lib/roles/ladder";
import { removeStoredUploads } from "@/lib/uploads/resolve-upload";

/**
 * DELETE /v1/teams/{team_id} (the owner): the team's account and everything it owns (history, key, webhooks,
 * follows, publications, memberships, invitations, its audit trail) go by cascade. Refused while a paid
 * subscription is live (deleting the team under one would leave a bill no one can reach): cancel it first. Then the
 * uploads' stored files go: their rows went with the team, so the expiry cleanup would never find them.
 */
export async function deleteTeam(teamId: string, personId: string | null): Promise<void> {
  const person = requirePerson(personId);
  const db = await getDb();
  const label = await db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    await roleIn(tx, teamId, person, TEAM_ACTIONS.deleteTeam);
    const subscription = await tx.subscription.findUnique({
      where: { userId: teamId },
      select: { stripeSubscriptionId: true, status: true },
    });
    if (subscription?.stripeSubscriptionId && isCurrentStatus(subscription.status))
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
  await removeStoredUploads(label.uploads);
}
