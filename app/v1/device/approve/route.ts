import { withApi } from "@/lib/app/with-api";
import { deviceApproveEndpoint } from "@/lib/oauth/endpoints";
import { decideDeviceCode } from "@/lib/oauth/device-decide";

export const POST = withApi(deviceApproveEndpoint, ({ request, principal, body }) =>
  decideDeviceCode(request, principal.userId, body.user_code, "approve"),
);
