import { withApi } from "@/lib/rest/with-api";
import { deleteFollowEndpoint, getFollowEndpoint, updateFollowEndpoint } from "@/lib/follows/endpoints";
import { deleteFollow, getFollow, updateFollow } from "@/lib/follows/manage-follow";

export const GET = withApi(getFollowEndpoint, ({ principal, params }) => getFollow(principal.userId, params.id));
export const PATCH = withApi(updateFollowEndpoint, ({ principal, params, body }) =>
  updateFollow(principal.userId, params.id, body),
);
export const DELETE = withApi(deleteFollowEndpoint, ({ principal, params }) =>
  deleteFollow(principal.userId, params.id),
);
