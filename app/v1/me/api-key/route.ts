import { withApi } from "@/lib/rest/with-api";
import { getApiKeyEndpoint } from "@/lib/auth/endpoints";
import { getApiKeyState } from "@/lib/auth/api-keys";

export const GET = withApi(getApiKeyEndpoint, ({ principal }) => getApiKeyState(principal.userId, principal));
