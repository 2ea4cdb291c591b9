import { withApi } from "@/lib/rest/with-api";
import { rotateRequestSecretEndpoint } from "@/lib/webhooks/endpoints";
import { rotateRequestSecret } from "@/lib/webhooks/rotate-request-secret";

export const POST = withApi(rotateRequestSecretEndpoint, ({ principal }) => rotateRequestSecret(principal.userId));
