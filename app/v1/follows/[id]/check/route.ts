import { withApi } from "@/lib/rest/with-api";
import { checkFollowEndpoint } from "@/lib/follows/endpoints";
import { checkFollowNow } from "@/lib/follows/manage-follow";

export const POST = withApi(checkFollowEndpoint, ({ principal, params }) =>
  checkFollowNow(principal.userId, params.id),
);
