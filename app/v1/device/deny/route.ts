import { withApi } from "@/lib/app/with-api";
import { deviceDenyEndpoint } from "@/lib/oauth/endpoints";
import { decideDeviceCode } from "@/lib/oauth/device-decide";

export const POST = withApi(deviceDenyEndpoint, ({ request, principal, body }) =>
  decideDeviceCode(request, principal.userId, body.user_code, "deny"),
);
