import { withApi } from "@/lib/rest/with-api";
import { personOf } from "@/lib/auth/principal";
import { listConnectionsEndpoint } from "@/lib/oauth/endpoints";
import { listConnections } from "@/lib/oauth/connections";

export const GET = withApi(listConnectionsEndpoint, ({ principal }) => listConnections(personOf(principal)));
