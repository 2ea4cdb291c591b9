import { withApi } from "@/lib/rest/with-api";
import { teamUsageEndpoint } from "@/lib/teams/endpoints";
import { teamUsage } from "@/lib/teams/usage";

export const GET = withApi(teamUsageEndpoint, ({ principal, params }) => teamUsage(params.team_id, principal.personId));
