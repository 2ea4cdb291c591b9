import { withOAuth } from "@/lib/oauth/handler";
import { tokenEndpoint } from "@/lib/oauth/endpoints";
import { exchangeToken } from "@/lib/oauth/token-grants";

export const POST = withOAuth(tokenEndpoint, async ({ request, body }) => ({
  body: await exchangeToken(request, body),
}));
