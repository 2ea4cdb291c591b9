import { withApi } from "@/lib/app/with-api";
import { authorizeEndpoint } from "@/lib/oauth/endpoints";
import { authorize } from "@/lib/oauth/authorize";

export const POST = withApi(authorizeEndpoint, ({ principal, body }) => authorize(principal.userId, body));
