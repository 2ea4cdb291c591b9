import { withOAuth } from "@/lib/oauth/handler";
import { revokeEndpoint } from "@/lib/oauth/endpoints";
import { revokeToken } from "@/lib/oauth/revoke";

export const POST = withOAuth(revokeEndpoint, async ({ request, body }) => ({
  body: await revokeToken(request, body),
}));
