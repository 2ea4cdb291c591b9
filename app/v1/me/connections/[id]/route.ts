import { withApi } from "@/lib/rest/with-api";
import { personOf } from "@/lib/auth/principal";
import { revokeConnectionEndpoint } from "@/lib/oauth/endpoints";
import { revokeConnection } from "@/lib/oauth/connections";

export const DELETE = withApi(revokeConnectionEndpoint, ({ principal, params }) =>
  revokeConnection(personOf(principal), params.id),
);
