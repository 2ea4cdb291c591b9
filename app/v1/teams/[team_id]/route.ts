import { withApi } from "@/lib/rest/with-api";
import { deleteTeamEndpoint, getTeamEndpoint, updateTeamEndpoint } from "@/lib/teams/endpoints";
import { getTeam, updateTeam } from "@/lib/teams/teams";
import { deleteTeam } from "@/lib/teams/delete-team";

export const GET = withApi(getTeamEndpoint, ({ principal, params }) => getTeam(params.team_id, principal.personId));
export const PATCH = withApi(updateTeamEndpoint, ({ principal, params, body }) =>
  updateTeam(params.team_id, principal.personId, body),
);
export const DELETE = withApi(deleteTeamEndpoint, ({ principal, params }) =>
  deleteTeam(params.team_id, principal.personId),
);
