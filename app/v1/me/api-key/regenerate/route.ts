import { withApi } from "@/lib/rest/with-api";
import { regenerateApiKeyEndpoint } from "@/lib/auth/endpoints";
import { regenerateApiKey } from "@/lib/auth/api-keys";

export const POST = withApi(regenerateApiKeyEndpoint, ({ principal }) => regenerateApiKey(principal.userId));
