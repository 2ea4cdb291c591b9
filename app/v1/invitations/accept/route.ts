import { withApi } from "@/lib/rest/with-api";
import { acceptInvitationEndpoint } from "@/lib/teams/endpoints";
import { acceptInvitation } from "@/lib/teams/invitations";

export const POST = withApi(acceptInvitationEndpoint, ({ principal, body }) =>
  acceptInvitation(principal.personId, body.token),
);
