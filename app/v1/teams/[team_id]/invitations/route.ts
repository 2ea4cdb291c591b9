import { withApi } from "@/lib/rest/with-api";
import { createInvitationEndpoint, listInvitationsEndpoint } from "@/lib/teams/endpoints";
import { createInvitation, listInvitations } from "@/lib/teams/invitations";

export const GET = withApi(listInvitationsEndpoint, ({ principal, params }) =>
  listInvitations(params.team_id, principal.personId),
);
export const POST = withApi(createInvitationEndpoint, ({ principal, params, body }) =>
  createInvitation(params.team_id, principal.personId, body),
);
