import { withApi } from "@/lib/rest/with-api";
import { createTeamKeyEndpoint, listTeamKeysEndpoint } from "@/lib/teams/endpoints";
import { createTeamKey, listTeamKeys } from "@/lib/teams/keys";

export const GET = withApi(listTeamKeysEndpoint, ({ principal, params }) =>
  listTeamKeys(params.team_id, principal.personId),
);
export const POST = withApi(createTeamKeyEndpoint, ({ principal, params, body }) =>
  createTeamKey(params.team_id, principal.personId, body),
);
