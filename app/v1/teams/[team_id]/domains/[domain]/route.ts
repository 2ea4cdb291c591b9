import { withApi } from "@/lib/rest/with-api";
import { deleteDomainEndpoint } from "@/lib/teams/domain-endpoints";
import { deleteDomain } from "@/lib/teams/domains";

export const DELETE = withApi(deleteDomainEndpoint, ({ principal, params }) =>
  deleteDomain(params.team_id, principal.personId, params.domain),
);
