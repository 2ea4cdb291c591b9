import { withApi } from "@/lib/rest/with-api";
import { personOf } from "@/lib/auth/principal";
import { endSessionsEndpoint } from "@/lib/auth/endpoints";
import { endAllSessions } from "@/lib/auth/sessions";

export const POST = withApi(endSessionsEndpoint, ({ principal }) => endAllSessions(personOf(principal)));
