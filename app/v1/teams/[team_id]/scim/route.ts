import { withApi } from "@/lib/rest/with-api";
import { makeScimTokenEndpoint, revokeScimTokenEndpoint, scimTokenStateEndpoint } from "@/lib/scim/endpoints";
import { makeScimToken, revokeScimToken, scimTokenState } from "@/lib/scim/tokens";

export const GET = withApi(scimTokenStateEndpoint, ({ principal, params }) =>
  scimTokenState(params.team_id, principal.personId),
);

export const POST = withApi(makeScimTokenEndpoint, ({ principal, params }) =>
  makeScimToken(params.team_id, principal.personId),
);

export const DELETE = withApi(revokeScimTokenEndpoint, async ({ principal, params }) => {
  await revokeScimToken(params.team_id, principal.personId);
});
