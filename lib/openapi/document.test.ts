import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { allEndpoints } from "@/lib/openapi/endpoints";
import { REQUEST_BODY_EXAMPLES } from "@/lib/openapi/examples";

// Routes that are not part of the API description: Auth.js, the reference itself, the signed upload target,
// sitemaps, the 404 answer for unknown /v1 paths, the operator's /metrics, and the MCP endpoint with its protected resource metadata
// (JSON-RPC, not REST operations; its tools are listed by MCP's tools/list).
const NOT_API = [
  /^\/metrics$/,
  /^\/mcp$/,
  /^\/\.well-known\/oauth-protected-resource(\/mcp)?$/,
  /^\/api\/inngest/,
  /^\/sitemap/,
  /^\/api\/auth\//,
  /^\/docs/,
  /^\/openapi\.json$/,
  /^\/uploads\//,
  /^\/v1\/\{\[\.\.\.path\]\}$/,
  // The dashboard's plain HTML forms (Publish before hydration): a page's posts, not API operations.
  /^\/dashboard\//,
  // SCIM 2.0 (RFC 7644), described by its own discovery endpoints (/scim/v2/ServiceProviderConfig, /Schemas).
  /^\/scim\/v2\//,
];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

function servedOperations(): string[] {
  const appDir = path.resolve("app");
  return routeFiles(appDir).flatMap((file) => {
    const route =
      "/" +
      path
        .relative(appDir, path.dirname(file))
        .split(path.sep)
        .filter((segment) => !/^\(.*\)$/.test(segment))
        .map((segment) => segment.replace(/^\[(?:\.\.\.)?(.+)\]$/, "{$1}"))
        .join("/");
    if (NOT_API.some((pattern) => pattern.test(route))) return [];
    const source = readFileSync(file, "utf8");
    const methods = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
    return methods.map((method) => `${method} ${route}`);
  });
}

describe("/openapi.json", () => {
  const document = buildOpenApiDocument("http://localhost:3000");

  it("is OpenAPI 3.1 with the contract's version", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("0.1.0");
  });

  it("describes exactly the API routes that exist", () => {
    const described = Object.entries(document.paths).flatMap(([route, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${route}`),
    );
    const served = servedOperations();
    expect(served.length).toBeGreaterThan(0);
    expect(described.sort()).toEqual(served.sort());
  });

  it("describes the public transcript's 304 without a body and the index's keyset pagination", () => {
    const read = document.paths["/v1/public/{slug}"].get as { responses: Record<string, { content?: unknown }> };
    expect(read.responses["304"]).toEqual({ description: "Not modified" });
    expect(read.responses["404"].content).toBeDefined();
    const index = document.paths["/v1/public/index"].get as { description: string; parameters: { name: string }[] };
    expect(index.description).toMatch(/keyset pagination/i);
    expect(index.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(["cursor", "limit"]));
  });

  it("uses the route schemas, with named components and resolvable references", () => {
    const apiKey = document.paths["/v1/me/api-key"].get as {
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    };
    expect(apiKey.responses["200"].content?.["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ApiKeyState",
    });
    expect(apiKey.responses["401"]).toBeDefined();
    const schema = document.components.schemas.ApiKeyState as { required: string[] };
    expect(schema.required).toEqual(expect.arrayContaining(["has_key", "tier"]));
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) expect(document.components.schemas, ref).toHaveProperty(ref);
  });

  it("opens with an introduction and lists Transcripts first, the inbound webhooks last and marked internal", () => {
    expect(document.info.description).toContain("`http://localhost:3000`");
    expect(document.info.description).toMatch(/Authorization: Bearer/);
    expect(document.info.description).toMatch(/GET \/v1\/jobs\/\{job_id\}/);
    expect(document.tags[0].name).toBe("Transcripts");
    const operations = Object.values(document.paths).flatMap(
      (ops) => Object.values(ops) as { tags: string[]; "x-internal"?: boolean }[],
    );
    expect(operations[0].tags).toEqual(["Transcripts"]);
    const internal = Object.entries(document.paths).filter(([, ops]) =>
      Object.values(ops).some((op) => (op as { "x-internal"?: boolean })["x-internal"]),
    );
    expect(internal.map(([path]) => path).sort()).toEqual([
      "/v1/webhooks/assemblyai",
      "/v1/webhooks/billing",
      "/v1/webhooks/websub/{token}",
    ]);
    expect(operations.at(-1)!.tags).toEqual(["Inbound webhooks"]);
    // Every operation's section is one the reference introduces (else Swagger UI lists it after the webhooks).
    const sections = new Set(document.tags.map((tag) => tag.name));
    for (const operation of operations) expect(sections, operation.tags[0]).toContain(operation.tags[0]);
  });

  it("has a working example for every request body a client sends, accepted by the route's own schema", () => {
    for (const endpoint of allEndpoints) {
      if (!endpoint.body || endpoint.path.startsWith("/v1/webhooks/")) continue;
      const key = `${endpoint.method} ${endpoint.path}`;
      const example = REQUEST_BODY_EXAMPLES[key];
      expect(example, key).toBeDefined();
      expect(endpoint.body.safeParse(example).success, key).toBe(true);
      const body = (
        document.paths[endpoint.path] as Record<
          string,
          { requestBody: { content: Record<string, { example?: unknown }> } }
        >
      )[endpoint.method.toLowerCase()].requestBody;
      for (const media of Object.values(body.content)) expect(media.example, key).toEqual(example);
    }
    const transcript = document.paths["/v1/transcript"].post as {
      requestBody: { content: { "application/json": { example: unknown } } };
    };
    expect(transcript.requestBody.content["application/json"].example).toEqual({
      url: "https://www.youtube.com/watch?v=GJLlxj_dtq8",
      lang: "en",
      format: "srt",
    });
  });

  it("types downloads and media by what they send, not as JSON", () => {
    type Op = { responses: Record<string, { content?: Record<string, unknown> }> };
    const paths = buildOpenApiDocument("http://localhost:3000").paths as Record<string, Record<string, Op>>;
    const formats = ["application/json", "text/plain", "application/x-subrip", "text/vtt", "text/markdown"];
    for (const path of ["/v1/transcripts/{id}/download", "/v1/public/{slug}/download"]) {
      expect(Object.keys(paths[path].get.responses["200"].content ?? {})).toEqual(formats);
    }
    expect(Object.keys(paths["/v1/transcripts/{id}/media"].get.responses["200"].content ?? {})).toEqual([
      "audio/*",
      "video/*",
    ]);
  });

  it("documents an endpoint's own 422 besides the validation errors, and the body limit of POST /v1/transcript", () => {
    type Op = { responses: Record<string, { content?: { "application/json"?: { schema: unknown } } }> };
    const paths = buildOpenApiDocument("http://localhost:3000").paths as Record<string, Record<string, Op>>;
    for (const path of ["/v1/podcast/resolve", "/v1/import", "/v1/me/webhooks"]) {
      expect(paths[path].post.responses["422"].content?.["application/json"]?.schema).toEqual({
        anyOf: [{ $ref: "#/components/schemas/HTTPValidationError" }, { $ref: "#/components/schemas/Problem" }],
      });
    }
    expect(paths["/v1/transcript"].post.responses).toHaveProperty("413");
  });
});
