import { scimJson, scimRoute } from "@/lib/scim/http";
import { deleteUser, getUser, patchUser, replaceUser } from "@/lib/scim/users";

export const GET = scimRoute(async ({ teamId, slug, params }) => scimJson(await getUser({ teamId, slug }, params.id)));

export const PUT = scimRoute(async ({ teamId, slug, params, body }) =>
  scimJson(await replaceUser({ teamId, slug }, params.id, (await body()) as Record<string, unknown>)),
);

export const PATCH = scimRoute(async ({ teamId, slug, params, body }) =>
  scimJson(await patchUser({ teamId, slug }, params.id, await body())),
);

export const DELETE = scimRoute(async ({ teamId, slug, params }) => {
  await deleteUser({ teamId, slug }, params.id);
  return new Response(null, { status: 204 });
});
