import { withApi } from "@/lib/rest/with-api";
import { createFollowEndpoint, listFollowsEndpoint } from "@/lib/follows/endpoints";
import { createFollow } from "@/lib/follows/create-follow";
import { listFollows } from "@/lib/follows/manage-follow";

export const POST = withApi(createFollowEndpoint, ({ principal, body }) => createFollow(principal.userId, body));
export const GET = withApi(listFollowsEndpoint, ({ principal }) => listFollows(principal.userId));
