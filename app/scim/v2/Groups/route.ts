import { scimJson, scimRoute } from "@/lib/scim/http";
import { createGroup, listGroups } from "@/lib/scim/groups";

export const GET = scimRoute(async ({ request, teamId, slug }) =>
  scimJson(await listGroups({ teamId, slug }, request.nextUrl.searchParams)),
);

export const POST = scimRoute(async ({ teamId, slug, body }) => {
  const group = await createGroup({ teamId, slug }, (await body()) as Record<string, unknown>);
  return scimJson(group, 201, { location: group.meta.location });
});
