import { withApi } from "@/lib/rest/with-api";
import { personOf } from "@/lib/auth/principal";
import { deviceApproveEndpoint } from "@/lib/oauth/endpoints";
import { decideDeviceCode } from "@/lib/oauth/device-decide";

export const POST = withApi(deviceApproveEndpoint, ({ request, principal, body }) =>
  decideDeviceCode(request, personOf(principal), body.user_code, "approve", body.workspace_id, principal.session),
);
