// OIDC_TEAM_ROLES (which claim value gives which role in which team) and OIDC_ALLOWED_DOMAINS, as sign-in and SCIM
// read them: lib/env keeps their text, these rules read it, and lib/app/check-settings.ts reads it once at start,
// so a typo stops the server with the variable's name.
import type { Env } from "@/lib/env";
import { TEAM_ROLES, type TeamRoleName } from "@/lib/roles/ladder";

/** One rule of OIDC_TEAM_ROLES: a person whose roles claim holds `value` gets `role` in the team `team`. */
export interface TeamRoleRule {
  team: string;
  role: TeamRoleName;
  value: string;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/**
 * `acme:admin=verbatim-admins, acme:member=verbatim-users`: team slug, role and claim value, comma or newline
 * separated. The claim value is everything after the first `=` (group paths like `/org/staff` and URNs are fine;
 * a value with a comma cannot be written). Returns the rules, or the first problem as a sentence.
 */
export function parseTeamRoleRules(text: string): { rules: TeamRoleRule[] } | { error: string } {
  const rules: TeamRoleRule[] = [];
  for (const raw of text.split(/[,\n]/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const match = /^([^:=\s]+):([^=\s]+)=(.+)$/.exec(entry);
    if (!match) return { error: `"${entry}" is not team:role=claim-value` };
    const [, team, role, value] = match;
    if (!SLUG.test(team)) return { error: `"${team}" is not a team slug (lower-case letters, digits and dashes)` };
    if (!(TEAM_ROLES as readonly string[]).includes(role))
      return { error: `"${role}" is not a role (${TEAM_ROLES.join(", ")})` };
    rules.push({ team, role: role as TeamRoleName, value: value.trim() });
  }
  return { rules };
}

/** `example.com, example.org`: lower-cased domains (an address's part after the @ must equal one of them). */
export function parseDomainList(text: string): { domains: string[] } | { error: string } {
  const domains: string[] = [];
  for (const raw of text.split(",")) {
    const domain = raw.trim().toLowerCase().replace(/^@/, "");
    if (!domain) continue;
    if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(domain))
      return { error: `"${raw.trim()}" is not a domain` };
    domains.push(domain);
  }
  return { domains };
}

/** OIDC_TEAM_ROLES's rules (unset: none); throws naming the setting. */
export function oidcTeamRoleRules(settings: Pick<Env, "OIDC_TEAM_ROLES">): TeamRoleRule[] {
  if (settings.OIDC_TEAM_ROLES === undefined) return [];
  const parsed = parseTeamRoleRules(settings.OIDC_TEAM_ROLES);
  if ("error" in parsed) throw new Error(`OIDC_TEAM_ROLES: ${parsed.error}`);
  return parsed.rules;
}

/** OIDC_ALLOWED_DOMAINS's domains (unset: undefined, any domain); throws naming the setting. */
export function oidcAllowedDomains(settings: Pick<Env, "OIDC_ALLOWED_DOMAINS">): string[] | undefined {
  if (settings.OIDC_ALLOWED_DOMAINS === undefined) return undefined;
  const parsed = parseDomainList(settings.OIDC_ALLOWED_DOMAINS);
  if ("error" in parsed) throw new Error(`OIDC_ALLOWED_DOMAINS: ${parsed.error}`);
  return parsed.domains;
}
