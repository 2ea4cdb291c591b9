import { withApi } from "@/lib/rest/with-api";
import { getMeEndpoint } from "@/lib/auth/endpoints";
import { getMe } from "@/lib/auth/get-me";

export const GET = withApi(getMeEndpoint, ({ principal }) => getMe(principal));
