import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import type { TeamRole } from "@/lib/generated/prisma/client";
import { log } from "@/lib/observability/logger";
import { applyRole } from "@/lib/membership/set-role";

/**
 * At sign-in with an e-mail whose ownership was just proved (through the identity provider, which verified it, or an
 * e-mail link): joins the team that verified the e-mail's domain, as the role it chose, if the person is not in it
 * yet. A team that is full is left alone (a warning says so); the sign-in goes on either way. A team whose members
 * the identity provider's role map decides (`providerTeams`, by slug) is not joined by domain: the map is its
 * authority, and would take the membership away again at the next sign-in.
 */
export async function joinByVerifiedDomain(
  personId: string,
  email: string,
  providerTeams: readonly string[] = [],
): Promise<{ teamId: string; role: TeamRole } | null> {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  const db = await getDb();
  const claim = await db.teamDomain.findUnique({
    where: { verifiedDomain: domain },
    include: { team: { select: { slug: true } } },
  });
  if (!claim || (claim.team.slug && providerTeams.includes(claim.team.slug))) return null;
  if (await db.membership.findUnique({ where: { teamId_userId: { teamId: claim.teamId, userId: personId } } }))
    return null;
  try {
    await db.$transaction((tx) =>
      applyRole(tx, claim.teamId, personId, claim.role, { actor: { id: null, label: `Verified domain ${domain}` } }),
    );
    return { teamId: claim.teamId, role: claim.role };
  } catch (error) {
    if (error instanceof ApiError) {
      log.warn({ teamId: claim.teamId, personId, code: error.code }, "joining by verified domain refused");
      return null;
    }
    throw error;
  }
}
