import { withOAuth } from "@/lib/oauth/handler";
import { deviceTokenEndpoint } from "@/lib/oauth/endpoints";
import { pollDeviceCode } from "@/lib/oauth/device-token";

export const POST = withOAuth(deviceTokenEndpoint, async ({ body }) => ({
  body: await pollDeviceCode(body.device_code),
}));
