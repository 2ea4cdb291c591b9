import { withApi } from "@/lib/rest/with-api";
import { transferTeamEndpoint } from "@/lib/teams/endpoints";
import { transferOwnership } from "@/lib/teams/members";

export const POST = withApi(transferTeamEndpoint, ({ principal, params, body }) =>
  transferOwnership(params.team_id, principal.personId, body.user_id),
);
