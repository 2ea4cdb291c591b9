import { withApi } from "@/lib/rest/with-api";
import { createTeamEndpoint, listTeamsEndpoint } from "@/lib/teams/endpoints";
import { createTeam, listTeams } from "@/lib/teams/teams";

export const GET = withApi(listTeamsEndpoint, ({ principal }) => listTeams(principal.personId));
export const POST = withApi(createTeamEndpoint, ({ principal, body }) => createTeam(principal.personId, body));
