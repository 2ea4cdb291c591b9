import { withApi } from "@/lib/rest/with-api";
import { revokeInvitationEndpoint } from "@/lib/teams/endpoints";
import { revokeInvitation } from "@/lib/teams/invitations";

export const DELETE = withApi(revokeInvitationEndpoint, ({ principal, params }) =>
  revokeInvitation(params.team_id, principal.personId, params.invitation_id),
);
