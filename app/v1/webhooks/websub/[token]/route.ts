import { withApi } from "@/lib/rest/with-api";
import { receivePushEndpoint, verifyPushEndpoint } from "@/lib/follows/endpoints";
import { receivePush, verifyPushIntent } from "@/lib/follows/push-callback";

export const GET = withApi(verifyPushEndpoint, ({ request, params }) =>
  verifyPushIntent(params.token, request.nextUrl.searchParams),
);
export const POST = withApi(receivePushEndpoint, async ({ request, params }) => {
  await receivePush(params.token, request);
});
