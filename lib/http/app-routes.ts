import type { Endpoint } from "@/lib/http/endpoint";

// The app's route handlers outside the REST API and MCP (which the endpoint table describes), with the
// methods each one exports: the request guard (request-guard.ts) answers any other method there with a
// 405 in the contract's shape, where Next.js would answer an empty 405. Kept in step with app/ by
// app-routes.test.ts. (The Auth.js catch-all and the uploads catch-all span several segments: not here.)
export const APP_ROUTES: readonly Pick<Endpoint, "method" | "path">[] = [
  { method: "GET", path: "/metrics" },
  { method: "GET", path: "/openapi.json" },
  { method: "GET", path: "/docs" },
  { method: "GET", path: "/docs/assets/{file}" },
  { method: "GET", path: "/sitemap.xml" },
  { method: "GET", path: "/sitemaps/{file}" },
  { method: "GET", path: "/api/inngest" },
  { method: "POST", path: "/api/inngest" },
  { method: "PUT", path: "/api/inngest" },
  // The Publish button's form before the page's scripts run (lib/app/publish-form.ts).
  { method: "POST", path: "/dashboard/publish" },
  // SCIM 2.0 provisioning (lib/scim), with the team's SCIM token.
  { method: "GET", path: "/scim/v2/ServiceProviderConfig" },
  { method: "GET", path: "/scim/v2/ResourceTypes" },
  { method: "GET", path: "/scim/v2/Schemas" },
  { method: "GET", path: "/scim/v2/Users" },
  { method: "POST", path: "/scim/v2/Users" },
  { method: "GET", path: "/scim/v2/Users/{id}" },
  { method: "PUT", path: "/scim/v2/Users/{id}" },
  { method: "PATCH", path: "/scim/v2/Users/{id}" },
  { method: "DELETE", path: "/scim/v2/Users/{id}" },
  { method: "GET", path: "/scim/v2/Groups" },
  { method: "POST", path: "/scim/v2/Groups" },
  { method: "GET", path: "/scim/v2/Groups/{id}" },
  { method: "PUT", path: "/scim/v2/Groups/{id}" },
  { method: "PATCH", path: "/scim/v2/Groups/{id}" },
  { method: "DELETE", path: "/scim/v2/Groups/{id}" },
];
