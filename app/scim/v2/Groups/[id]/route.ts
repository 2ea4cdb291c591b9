import { scimJson, scimRoute } from "@/lib/scim/http";
import { deleteGroup, getGroup, patchGroup, replaceGroup } from "@/lib/scim/groups";

export const GET = scimRoute(async ({ request, teamId, slug, params }) =>
  scimJson(await getGroup({ teamId, slug }, params.id, request.nextUrl.searchParams)),
);

export const PUT = scimRoute(async ({ teamId, slug, params, body }) =>
  scimJson(await replaceGroup({ teamId, slug }, params.id, (await body()) as Record<string, unknown>)),
);

export const PATCH = scimRoute(async ({ teamId, slug, params, body }) =>
  scimJson(await patchGroup({ teamId, slug }, params.id, await body())),
);

export const DELETE = scimRoute(async ({ teamId, slug, params }) => {
  await deleteGroup({ teamId, slug }, params.id);
  return new Response(null, { status: 204 });
});
