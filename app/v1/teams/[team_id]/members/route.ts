import { withApi } from "@/lib/rest/with-api";
import { listMembersEndpoint } from "@/lib/teams/endpoints";
import { listMembers } from "@/lib/teams/members";

export const GET = withApi(listMembersEndpoint, ({ principal, params }) =>
  listMembers(params.team_id, principal.personId),
);
