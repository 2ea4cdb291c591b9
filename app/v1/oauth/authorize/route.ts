import { withApi } from "@/lib/rest/with-api";
import { personOf } from "@/lib/auth/principal";
import { authorizeEndpoint } from "@/lib/oauth/endpoints";
import { authorize } from "@/lib/oauth/authorize";

export const POST = withApi(authorizeEndpoint, ({ principal, body }) =>
  authorize(personOf(principal), body, principal.session),
);
