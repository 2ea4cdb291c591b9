import type { OIDCConfig } from "next-auth/providers";
import type { Env } from "@/lib/env";
import type { TeamRole } from "@/lib/generated/prisma/client";
import { getDb } from "@/lib/db/client";
import { setMembershipRole } from "@/lib/membership/set-role";
import { log } from "@/lib/observability/logger";
import { claimedEmail, claimValues, teamRolesFromClaims, type Claims } from "@/lib/auth/oidc-claims";
import { oidcTeamRoleRules } from "@/lib/auth/oidc-settings";

/** The provider's id: its callback is APP_URL/api/auth/callback/oidc. */
export const OIDC_PROVIDER = "oidc";

export function oidcConfigured(settings: Pick<Env, "OIDC_ISSUER" | "OIDC_CLIENT_ID">): boolean {
  return Boolean(settings.OIDC_ISSUER && settings.OIDC_CLIENT_ID);
}

/**
 * Auth.js's generic OpenID Connect provider: endpoints and keys from the issuer's discovery document (whose
 * `issuer` must be OIDC_ISSUER, as must the ID token's `iss`), with PKCE, state and nonce. The profile is read
 * from UserInfo as well as the ID token, because many providers (oidc-provider among them) put e-mail and groups
 * only in UserInfo for the code flow.
 */
export function oidcProvider(settings: Env): OIDCConfig<Claims> {
  return {
    id: OIDC_PROVIDER,
    name: settings.OIDC_NAME,
    type: "oidc",
    issuer: settings.OIDC_ISSUER,
    clientId: settings.OIDC_CLIENT_ID,
    clientSecret: settings.OIDC_CLIENT_SECRET,
    client: settings.OIDC_CLIENT_SECRET ? undefined : { token_endpoint_auth_method: "none" },
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: settings.OIDC_SCOPES.join(" ") } },
    idToken: false,
    // Safe only because the signIn callback (nextauth.ts) refuses every e-mail the provider has not verified.
    allowDangerousEmailAccountLinking: true,
    profile(claims) {
      const email = claimedEmail(claims);
      const name = [claims.name, claims.preferred_username].find((value) => typeof value === "string");
      return {
        id: String(claims.sub),
        email,
        name: typeof name === "string" ? name.slice(0, 200) : (email?.split("@")[0] ?? null),
        image: null,
      };
    },
  };
}

/**
 * Applies the role map to the person who has just signed in through the provider: in each team the map names,
 * the role the claim gives, or no membership when it gives none (a person removed from the group loses the
 * team, a hand-made membership included: the map makes the provider that team's authority). Memberships the
 * provider made in teams the map no longer names are removed; other hand-made memberships are left alone. The
 * team's last owner is never removed or lowered (a warning says so). Teams that provision the person through SCIM
 * are left to SCIM.
 */
export async function applyTeamRoles(personId: string, claims: Claims, settings: Env): Promise<void> {
  const rules = oidcTeamRoleRules(settings);
  const wanted = teamRolesFromClaims(rules, claimValues(claims, settings.OIDC_ROLES_CLAIM));
  const db = await getDb();
  const teams = await db.user.findMany({
    where: { kind: "team", slug: { in: [...wanted.keys()] } },
    select: { id: true, slug: true },
  });
  for (const slug of wanted.keys())
    if (!teams.some((team) => team.slug === slug))
      log.warn({ team: slug }, "OIDC_TEAM_ROLES names a team that does not exist: create it, or fix the slug");
  const stale = await db.membership.findMany({
    where: { userId: personId, managedByIdentityProvider: true, teamId: { notIn: teams.map((team) => team.id) } },
    select: { teamId: true },
  });
  // Named as the sign-in page names it (OIDC_NAME), which a team's admin knows; its host is the operator's business.
  const actor = { id: null, label: settings.OIDC_NAME };
  const changes: [string, TeamRole | null][] = [
    ...teams.map((team): [string, TeamRole | null] => [team.id, wanted.get(team.slug!) ?? null]),
    ...stale.map((row): [string, null] => [row.teamId, null]),
  ];
  // A team whose identity provider provisions this person through SCIM is SCIM's to decide (lib/scim/membership.ts).
  const provisioned = new Set(
    (await db.scimUser.findMany({ where: { userId: personId }, select: { teamId: true } })).map((row) => row.teamId),
  );
  for (const [teamId, role] of changes) {
    if (provisioned.has(teamId)) continue;
    if (role !== "owner" && (await lastOwner(teamId, personId))) {
      log.warn({ teamId, personId }, "the identity provider's groups would leave the team without an owner: kept");
      continue;
    }
    await setMembershipRole(teamId, personId, role, { actor, managedByIdentityProvider: true });
  }
}

/** Whether `personId` is the team's only owner (lowering or removing them would leave it without one). */
async function lastOwner(teamId: string, personId: string): Promise<boolean> {
  const db = await getDb();
  const owners = await db.membership.findMany({ where: { teamId, role: "owner" }, select: { userId: true }, take: 2 });
  return owners.length === 1 && owners[0].userId === personId;
}
