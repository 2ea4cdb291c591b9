// The team roles and who may do what in a team, written once, below everything that reads them: the settings
// (OIDC_TEAM_ROLES), the permission table (lib/http), membership checks (lib/teams), and the dashboard (lib/browser).
// A role may do all that the roles below it may; giving or taking the top role is the top role's alone.

/** Highest first (Prisma's TeamRole enum holds the same four). */
export const TEAM_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type TeamRoleName = (typeof TEAM_ROLES)[number];

/** Whether `role` may do what `needed` may (owner > admin > member > viewer). */
export function atLeast(role: TeamRoleName, needed: TeamRoleName): boolean {
  return TEAM_ROLES.indexOf(role) <= TEAM_ROLES.indexOf(needed);
}

/** The least role each of a team's own operations needs (the account's operations are lib/http/permissions.ts's). */
export const TEAM_ACTIONS = {
  /** See the team and its members; leave it. */
  read: "viewer",
  /** Invite, revoke invitations, change a member's role, remove a member. */
  manageMembers: "admin",
  rename: "admin",
  readActivity: "admin",
  /** Export the audit trail (CSV, JSON Lines). */
  exportActivity: "admin",
  /** Make, list and revoke the team's named keys (each one's secret is shown to its maker once). */
  manageKeys: "admin",
  readUsage: "admin",
  /** Claim, verify and delete the team's domains (its people join by them). */
  manageDomains: "admin",
  /** Make members sign in through the identity provider, or stop doing so. */
  requireSso: "owner",
  transferOwnership: "owner",
  deleteTeam: "owner",
} as const satisfies Record<string, TeamRoleName>;
export type TeamAction = keyof typeof TEAM_ACTIONS;

/**
 * Whether someone whose role is `granter` (null: not in the team) may give `role`, by invitation or a change, or
 * change or remove someone who holds it: those who manage members may, and only an owner gives or takes owner.
 */
export function mayGrant(granter: TeamRoleName | null, role: TeamRoleName): boolean {
  if (!granter || !atLeast(granter, TEAM_ACTIONS.manageMembers)) return false;
  return role !== "owner" || granter === "owner";
}

/** The roles `granter` may give, highest first. */
export function grantableRoles(granter: TeamRoleName): TeamRoleName[] {
  return TEAM_ROLES.filter((role) => mayGrant(granter, role));
}
