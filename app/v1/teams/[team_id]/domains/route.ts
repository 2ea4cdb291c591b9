import { withApi } from "@/lib/rest/with-api";
import { createDomainEndpoint, listDomainsEndpoint } from "@/lib/teams/domain-endpoints";
import { addDomain, listDomains } from "@/lib/teams/domains";

export const GET = withApi(listDomainsEndpoint, ({ principal, params }) =>
  listDomains(params.team_id, principal.personId),
);
export const POST = withApi(createDomainEndpoint, ({ principal, params, body }) =>
  addDomain(params.team_id, principal.personId, body),
);
