import { withOAuth } from "@/lib/oauth/handler";
import { registerEndpoint } from "@/lib/oauth/endpoints";
import { registerClient } from "@/lib/oauth/register-client";

export const POST = withOAuth(
  registerEndpoint,
  async ({ body }) => ({ status: 201, body: await registerClient(body) }),
  { invalid: "invalid_client_metadata" },
);
