import type { TeamRoleRule } from "@/lib/auth/oidc-settings";
import { atLeast, type TeamRoleName } from "@/lib/roles/ladder";

// What an OpenID Connect provider's claims decide, as plain functions: whether the person may sign in (a verified
// e-mail, in an allowed domain) and which role they have in each team the role map names.

export type Claims = Record<string, unknown>;

/** Why a sign-in through the provider is refused; the sign-in page says each in a sentence. */
export type OidcRefusal = "email_missing" | "email_unverified" | "email_domain" | "group";

/** OIDC_ALLOWED_GROUPS and the claim (OIDC_ROLES_CLAIM) it is read from. */
export interface GroupGate {
  groups: readonly string[] | undefined;
  claim: string;
}

/** The lower-cased e-mail the claims name, or null. */
export function claimedEmail(claims: Claims): string | null {
  const email = claims.email;
  if (typeof email !== "string") return null;
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  return at > 0 && at < trimmed.length - 1 && trimmed.length <= 254 ? trimmed : null;
}

/** True only when the provider says the e-mail is verified (some send the string "true"). */
export function emailVerified(claims: Claims): boolean {
  return claims.email_verified === true || claims.email_verified === "true";
}

/** True when `email`'s domain is one of `domains` exactly (no subdomains), or when no domains are set. */
export function emailDomainAllowed(email: string, domains: readonly string[] | undefined): boolean {
  if (!domains || domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return domains.includes(domain);
}

/**
 * Accounts are made, and an existing person with the same e-mail is linked, only for an e-mail the provider
 * says it verified: an unverified claim would let anyone who can set an address at the provider take over that
 * address's account here.
 */
export function oidcRefusal(
  claims: Claims,
  allowedDomains: readonly string[] | undefined,
  gate?: GroupGate,
): OidcRefusal | null {
  const email = claimedEmail(claims);
  if (!email) return "email_missing";
  if (!emailVerified(claims)) return "email_unverified";
  if (!emailDomainAllowed(email, allowedDomains)) return "email_domain";
  if (gate && !inAllowedGroup(claims, gate)) return "group";
  return null;
}

/** True when no groups are set, or when the roles claim names one of them (exactly). */
export function inAllowedGroup(claims: Claims, gate: GroupGate): boolean {
  if (!gate.groups || gate.groups.length === 0) return true;
  const held = new Set(claimValues(claims, gate.claim));
  return gate.groups.some((group) => held.has(group));
}

/**
 * The values of the roles claim: a string is one value, a list its strings. A name that is not a claim is read
 * as a dotted path (`realm_access.roles`, Keycloak's realm roles); a claim named with dots (a URL) wins.
 */
export function claimValues(claims: Claims, name: string): string[] {
  let value: unknown = claims[name];
  if (value === undefined && name.includes(".")) {
    value = name.split(".").reduce<unknown>((at, key) => {
      if (typeof at !== "object" || at === null || Array.isArray(at)) return undefined;
      return Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
    }, claims);
  }
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return [];
}

/**
 * Each team the rules name, with the highest role the claim values give in it, or null where none matches
 * (the person is not, or is no longer, in any of that team's groups).
 */
export function teamRolesFromClaims(
  rules: readonly TeamRoleRule[],
  values: readonly string[],
): Map<string, TeamRoleName | null> {
  const held = new Set(values);
  const roles = new Map<string, TeamRoleName | null>();
  for (const rule of rules) {
    const current = roles.get(rule.team) ?? null;
    if (!held.has(rule.value)) {
      roles.set(rule.team, current);
      continue;
    }
    roles.set(rule.team, current === null || !atLeast(current, rule.role) ? rule.role : current);
  }
  return roles;
}

/** The claims of an ID token that Auth.js has already validated (signature, issuer, audience, nonce). */
export function idTokenClaims(idToken: unknown): Claims {
  if (typeof idToken !== "string") return {};
  const payload = idToken.split(".")[1];
  if (!payload) return {};
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return typeof claims === "object" && claims !== null && !Array.isArray(claims) ? (claims as Claims) : {};
  } catch {
    return {};
  }
}

/** The person's claims: the ID token's, with the UserInfo answer's over them (fresher, and Auth.js checked its sub). */
export function mergedClaims(userinfo: unknown, idToken: unknown): Claims {
  const fromUserinfo = typeof userinfo === "object" && userinfo !== null ? (userinfo as Claims) : {};
  return { ...idTokenClaims(idToken), ...fromUserinfo };
}
