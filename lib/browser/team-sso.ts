// Browser side of a team's single sign-on settings (the Team page): its verified domains
// (/v1/teams/{id}/domains…), requiring sign-in through the identity provider (PATCH /v1/teams/{id} require_sso)
// and its SCIM token (/v1/teams/{id}/scim).

import { apiFetch, ApiRequestError } from "@/lib/browser/api";
import type { TeamView } from "@/lib/browser/teams";
import { TEAM_ACTIONS, atLeast, type TeamRoleName } from "@/lib/roles/ladder";

export type DomainRole = "admin" | "member" | "viewer";

export interface TeamDomainView {
  domain: string;
  role: TeamRoleName;
  status: "pending" | "verified";
  verification: { record_type: "TXT"; name: string; value: string };
  created_at: string;
  verified_at: string | null;
}

export interface ScimTokenView {
  exists: boolean;
  /** Only in the answer that made it. */
  token?: string;
  token_prefix: string | null;
  created_at: string | null;
  last_used_at: string | null;
  base_url: string;
}

const enc = encodeURIComponent;
const json = (method: string, body?: unknown): RequestInit => ({
  method,
  ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
});
const team = (id: string) => `/v1/teams/${enc(id)}`;

export const fetchDomains = (id: string) =>
  apiFetch<{ domains: TeamDomainView[] }>(`${team(id)}/domains`).then((r) => r.domains);
export const addDomain = (id: string, input: { domain: string; role: DomainRole }) =>
  apiFetch<TeamDomainView>(`${team(id)}/domains`, json("POST", input));
export const verifyDomain = (id: string, domain: string) =>
  apiFetch<TeamDomainView>(`${team(id)}/domains/${enc(domain)}/verify`, json("POST"));
export const deleteDomain = (id: string, domain: string) =>
  apiFetch<null>(`${team(id)}/domains/${enc(domain)}`, json("DELETE"));
export const setRequireSso = (id: string, on: boolean) =>
  apiFetch<TeamView & { require_sso: boolean }>(team(id), json("PATCH", { require_sso: on }));
export const fetchScimToken = (id: string) => apiFetch<ScimTokenView>(`${team(id)}/scim`);
export const makeScimToken = (id: string) => apiFetch<ScimTokenView>(`${team(id)}/scim`, json("POST"));
export const revokeScimToken = (id: string) => apiFetch<null>(`${team(id)}/scim`, json("DELETE"));

/**
 * Which single sign-on settings a role is shown: domains from admin up; requiring the provider (only where the
 * server has one) and the SCIM token for the owner alone, as the API allows.
 */
export function ssoSettingsFor(
  role: TeamRoleName,
  providerConfigured: boolean,
): { domains: boolean; requireSso: boolean; scim: boolean } {
  return {
    domains: atLeast(role, TEAM_ACTIONS.manageDomains),
    requireSso: providerConfigured && atLeast(role, TEAM_ACTIONS.requireSso),
    scim: atLeast(role, TEAM_ACTIONS.transferOwnership),
  };
}

/** A failed Verify in words: what went wrong (by the API's code) before the API's own detail. */
export function verifyProblem(error: Error): { title: string; detail: string } {
  const code = error instanceof ApiRequestError ? error.code : null;
  const status = error instanceof ApiRequestError ? error.status : 0;
  const title =
    code === "domain_unverified"
      ? "The TXT record was not found yet"
      : code === "domain_taken"
        ? "Another team has verified this domain"
        : code === "upstream_timeout" || status === 504
          ? "The DNS lookup timed out"
          : code === "upstream_dns_failed" || status === 502
            ? "The DNS lookup failed"
            : "The domain could not be verified";
  const hint =
    code === "domain_unverified"
      ? " DNS changes can take a while to show; publish the record below, then verify again."
      : status === 502 || status === 504
        ? " Try again in a moment."
        : "";
  return { title, detail: error.message + hint };
}
