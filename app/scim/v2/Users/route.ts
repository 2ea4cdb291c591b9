import { scimJson, scimRoute } from "@/lib/scim/http";
import { createUser, listUsers } from "@/lib/scim/users";

export const GET = scimRoute(async ({ request, teamId, slug }) =>
  scimJson(await listUsers({ teamId, slug }, request.nextUrl.searchParams)),
);

export const POST = scimRoute(async ({ teamId, slug, body }) => {
  const user = await createUser({ teamId, slug }, (await body()) as Record<string, unknown>);
  return scimJson(user, 201, { location: user.meta.location });
});
