import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { APP_ROUTES } from "@/lib/http/app-routes";
import { refusal, routeTable } from "@/lib/http/request-guard";
import { allEndpoints } from "@/lib/openapi/endpoints";
import { MCP_ROUTES } from "@/lib/mcp/metadata";

const table = routeTable([...allEndpoints, ...MCP_ROUTES, ...APP_ROUTES]);

/** Every app/**\/route.ts outside /v1 with one path segment per folder, and the methods it exports. */
function routeFiles(): { path: string; methods: string[] }[] {
  return (readdirSync("app", { recursive: true }) as string[])
    .map((file) => `app/${file}`)
    .filter((file) => file.endsWith("/route.ts"))
    .filter((file) => !file.startsWith("app/v1/") && !file.includes("[..."))
    .map((file) => {
      const path = `/${file.replace(/^app\//, "").replace(/\/?route\.ts$/, "")}`.replace(/\[([^\]]+)\]/g, "{$1}");
      const methods = [
        ...readFileSync(file, "utf8").matchAll(
          /export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g,
        ),
      ].map((m) => m[1]!);
      return { path: path === "/" ? "/" : path, methods };
    });
}

describe("the request guard's table of the app's other routes", () => {
  it("names every route handler outside /v1 with exactly the methods it exports", () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(10);
    for (const { path, methods } of files) {
      const probe = path.replace(/\{[^}]+\}/g, "x");
      const allowed = table.match(probe);
      expect(allowed, path).toBeDefined();
      for (const method of methods) expect(allowed, `${method} ${path}`).toContain(method);
      for (const method of allowed!.filter((m) => m !== "HEAD" && m !== "OPTIONS"))
        expect(methods, `${path} serves ${method}`).toContain(method);
    }
  });

  it("POST /metrics is a 405 with a body in the contract's shape and Allow", () => {
    expect(refusal("POST", "/metrics", table)).toEqual({
      status: 405,
      body: { detail: "POST is not served at this path; it serves GET, HEAD, OPTIONS.", code: "method_not_allowed" },
      headers: { allow: "GET, HEAD, OPTIONS" },
    });
    expect(refusal("DELETE", "/openapi.json", table)).toMatchObject({ status: 405 });
    expect(refusal("GET", "/metrics", table)).toBeNull();
  });

  it("answers under /scim/v2 in SCIM's error shape (RFC 7644 §3.12), with Allow", () => {
    expect(refusal("POST", "/scim/v2/Users/abc", table)).toEqual({
      status: 405,
      body: {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
        status: "405",
        detail: "POST is not served at this path; it serves DELETE, GET, HEAD, OPTIONS, PATCH, PUT.",
      },
      headers: { allow: "DELETE, GET, HEAD, OPTIONS, PATCH, PUT", "content-type": "application/scim+json" },
    });
    expect(refusal("TRACE", "/scim/v2/Groups", table)).toMatchObject({ status: 405, body: { status: "405" } });
    // A path no SCIM route serves, holding text PostgreSQL cannot: SCIM's invalidValue.
    expect(refusal("GET", "/scim/v2/x%00", table)).toMatchObject({
      status: 400,
      body: { status: "400", scimType: "invalidValue" },
      headers: { "content-type": "application/scim+json" },
    });
    expect(refusal("GET", "/scim/v2/Users", table)).toBeNull();
  });
});
