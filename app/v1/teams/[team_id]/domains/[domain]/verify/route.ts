import { withApi } from "@/lib/rest/with-api";
import { verifyDomainEndpoint } from "@/lib/teams/domain-endpoints";
import { verifyDomain } from "@/lib/teams/domains";

export const POST = withApi(verifyDomainEndpoint, ({ principal, params }) =>
  verifyDomain(params.team_id, principal.personId, params.domain),
);
