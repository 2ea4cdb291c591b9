import { withApi } from "@/lib/rest/with-api";
import { ensureApiKeyEndpoint } from "@/lib/auth/endpoints";
import { ensureApiKey } from "@/lib/auth/api-keys";

export const POST = withApi(ensureApiKeyEndpoint, ({ principal }) => ensureApiKey(principal.userId));
