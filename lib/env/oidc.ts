/**
 * The OpenID Connect settings (lib/env.ts reads them with the rest). OIDC_TEAM_ROLES and OIDC_ALLOWED_DOMAINS are
 * kept as text: their rules are sign-in's (lib/auth/oidc-settings.ts), read once at start (lib/app/check-settings.ts)
 * so a typo stops the server with the variable's name.
 */
import { z } from "zod";

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
  /** Read by lib/auth/oidc-settings.ts (checked at start, lib/app/check-settings.ts). */
  OIDC_ALLOWED_DOMAINS: z.string().optional(),
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
  /** Read by lib/auth/oidc-settings.ts (checked at start, lib/app/check-settings.ts). */
  OIDC_TEAM_ROLES: z.string().optional(),
};
