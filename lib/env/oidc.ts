/**
 * The OpenID Connect settings (lib/env.ts reads them with the rest) and their vocabularies: OIDC_TEAM_ROLES (which
 * claim value gives which role in which team) and OIDC_ALLOWED_DOMAINS. Checked at start, so a typo stops the
 * server with the variable's name.
 */
import { z } from "zod";
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

export const OIDC_SETTINGS = {
  /** Any OpenID Connect provider (lib/auth/oidc.ts): on when OIDC_ISSUER and OIDC_CLIENT_ID are set. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** Unset: a public client (PKCE only, no client authentication). */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(60).default("Single sign-on"),
  OIDC_SCOPES: z
    .string()
    .transform((list) => [...new Set(list.split(/[\s,]+/).filter(Boolean))])
    .refine((scopes) => scopes.includes("openid"), "must include openid")
    .default(["openid", "email", "profile"]),
  OIDC_ALLOWED_DOMAINS: z
    .string()
    .transform((list, ctx) => {
      const parsed = parseDomainList(list);
      if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error });
      return "domains" in parsed ? parsed.domains : [];
    })
    .optional(),
  /** Only people whose roles claim (OIDC_ROLES_CLAIM) names one of these sign in through the provider. */
  OIDC_ALLOWED_GROUPS: z
    .string()
    .transform((list) => [
      ...new Set(
        list
          .split(",")
          .map((group) => group.trim())
          .filter(Boolean),
      ),
    ])
    .optional(),
  /** A session made through the provider ends this long after the provider last confirmed the person. */
  OIDC_SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(720).default(12),
  OIDC_ROLES_CLAIM: z.string().trim().min(1).default("groups"),
  OIDC_TEAM_ROLES: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseTeamRoleRules(text);
      if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error });
      return "rules" in parsed ? parsed.rules : [];
    })
    .optional(),
};
