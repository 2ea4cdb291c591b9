import { withApi } from "@/lib/app/with-api";
import { revokeConnectionEndpoint } from "@/lib/oauth/endpoints";
import { revokeConnection } from "@/lib/oauth/connections";

export const DELETE = withApi(revokeConnectionEndpoint, ({ principal, params }) =>
  revokeConnection(principal.userId, params.id),
);
