import { withApi } from "@/lib/rest/with-api";
import { changeMemberRoleEndpoint, removeMemberEndpoint } from "@/lib/teams/endpoints";
import { changeMemberRole, removeMember } from "@/lib/teams/members";

export const PATCH = withApi(changeMemberRoleEndpoint, ({ principal, params, body }) =>
  changeMemberRole(params.team_id, principal.personId, params.user_id, body.role),
);
export const DELETE = withApi(removeMemberEndpoint, ({ principal, params }) =>
  removeMember(params.team_id, principal.personId, params.user_id),
);
