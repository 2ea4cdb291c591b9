import { withApi } from "@/lib/rest/with-api";
import { personOf } from "@/lib/auth/principal";
import { deviceDenyEndpoint } from "@/lib/oauth/endpoints";
import { decideDeviceCode } from "@/lib/oauth/device-decide";

export const POST = withApi(deviceDenyEndpoint, ({ request, principal, body }) =>
  decideDeviceCode(request, personOf(principal), body.user_code, "deny"),
);
