import { withApi } from "@/lib/rest/with-api";
import { revokeTeamKeyEndpoint } from "@/lib/teams/endpoints";
import { revokeTeamKey } from "@/lib/teams/keys";

export const DELETE = withApi(revokeTeamKeyEndpoint, ({ principal, params }) =>
  revokeTeamKey(params.team_id, principal.personId, params.key_id),
);
