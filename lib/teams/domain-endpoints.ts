import { defineEndpoint } from "@/lib/http/endpoint";
import { createDomainSchema, domainListSchema, domainParamsSchema, domainSchema } from "@/lib/teams/domain-schemas";
import { teamParamsSchema } from "@/lib/teams/schemas";

const tag = "Teams";
const notYours = "No team with this id among yours (another team's id answers the same)";
const joining =
  "Once the team has verified a domain, a person who signs in with an e-mail of it that is proved (through the identity provider, which says it verified it, or an e-mail sign-in link) joins the team at sign-in as the domain's role, without an invitation. The development login and GitHub or Google sign-in join nobody.";

export const createDomainEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/teams/{team_id}/domains",
  tag,
  summary: "Claim a domain for the team (admin): answers the TXT record that proves it",
  description: `Publish the answer's \`verification\` record (TXT \`_verbatim.<domain>\`, or at the domain itself), then ask for it to be verified. ${joining} Several teams may claim a domain; the first to verify it has it. TEAM_MAX_DOMAINS per team.`,
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  body: createDomainSchema,
  status: 201,
  response: domainSchema,
  errors: {
    403: "The caller is not an admin of the team, or gives a role they may not give",
    404: notYours,
    409: "The team has claimed the domain already (`domain_claimed`), or TEAM_MAX_DOMAINS (`too_many_domains`)",
  },
});

export const listDomainsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/teams/{team_id}/domains",
  tag,
  summary: "The team's domains, pending and verified (admin)",
  auth: "teams",
  rateLimit: "account",
  params: teamParamsSchema,
  response: domainListSchema,
  errors: { 403: "The caller is not an admin of the team", 404: notYours },
});

export const verifyDomainEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/teams/{team_id}/domains/{domain}/verify",
  tag,
  summary: "Check the domain's TXT record now (admin); verified, people of the domain join at sign-in",
  description: joining,
  auth: "teams",
  rateLimit: "account",
  params: domainParamsSchema,
  response: domainSchema,
  errors: {
    403: "The caller is not an admin of the team",
    404: "No such team among the caller's, or the team has not claimed the domain",
    409: "Another team has verified the domain (`domain_taken`)",
    422: "No TXT record with the verification value (`domain_unverified`)",
    502: "The DNS servers failed (`upstream_dns_failed`)",
    504: "The DNS servers did not answer in time (`upstream_timeout`)",
  },
});

export const deleteDomainEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/teams/{team_id}/domains/{domain}",
  tag,
  summary: "Stop joining people by a domain (admin); those who joined stay members",
  auth: "teams",
  rateLimit: "account",
  params: domainParamsSchema,
  status: 204,
  response: null,
  errors: {
    403: "The caller is not an admin of the team",
    404: "No such team among the caller's, or the team has not claimed the domain",
  },
});
