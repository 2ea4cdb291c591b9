import { withOAuth } from "@/lib/oauth/handler";
import { deviceCodeEndpoint } from "@/lib/oauth/endpoints";
import { createDeviceCode } from "@/lib/oauth/device-code";

export const POST = withOAuth(deviceCodeEndpoint, async ({ request, body }) => ({
  body: await createDeviceCode(request, body),
}));
