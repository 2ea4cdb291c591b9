import { z, type ZodType } from "zod";
import type { Endpoint } from "@/lib/http/endpoint";
import { credentialsFor } from "@/lib/auth/principal";
import { allEndpoints } from "@/lib/openapi/endpoints";

type JsonSchema = Record<string, unknown>;

const validationErrorSchema: JsonSchema = {
  type: "object",
  required: ["loc", "msg", "type"],
  properties: {
    loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
    msg: { type: "string" },
    type: { type: "string" },
    input: {},
    ctx: { type: "object" },
  },
};

const problemSchema: JsonSchema = {
  type: "object",
  required: ["detail", "code"],
  properties: { detail: { type: "string" }, code: { type: "string" } },
};

// OAuth and device-flow endpoints answer errors as RFC 6749 5.2 says.
const oauthErrorSchema: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "string" }, error_description: { type: "string" } },
};

/** Converts a zod schema, moving named sub-schemas into components.schemas. */
function convert(schema: ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  const text = JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $schema: _schema, $defs, ...rest } = JSON.parse(text) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  Object.assign(components, $defs ?? {});
  return rest;
}

function parameters(schema: ZodType | undefined, where: "query" | "path", components: Record<string, JsonSchema>) {
  if (!schema) return [];
  const json = convert(schema, "input", components) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === "string" ? { description: property.description } : {}),
  }));
}

function operation(endpoint: Endpoint, components: Record<string, JsonSchema>) {
  const credentials = credentialsFor(endpoint.auth);
  const responses: Record<string, unknown> = {
    [String(endpoint.status ?? 200)]:
      endpoint.response === null
        ? { description: "No content" }
        : {
            description: "Success",
            content: { "application/json": { schema: endpoint.response ? convert(endpoint.response, "output", components) : {} } },
          },
  };
  if (endpoint.accepted) {
    responses["202"] = {
      description: endpoint.accepted.description,
      content: { "application/json": { schema: convert(endpoint.accepted.schema, "output", components) } },
    };
  }
  const hasInput = endpoint.query || endpoint.body || endpoint.params;
  const problem = { $ref: `#/components/schemas/${endpoint.oauth ? "OAuthError" : "Problem"}` };
  if (hasInput && !endpoint.oauth) {
    responses["422"] = { description: "Validation Error", content: { "application/json": { schema: { $ref: "#/components/schemas/HTTPValidationError" } } } };
  }
  if (credentials.length > 0) {
    responses["401"] = { description: "Missing or invalid credentials", content: { "application/json": { schema: problem } } };
  }
  if (endpoint.rateLimit) {
    responses["429"] = { description: "Too many requests (see Retry-After and the RateLimit-* headers)", content: { "application/json": { schema: problem } } };
  }
  for (const [status, description] of Object.entries(endpoint.errors ?? {})) {
    // 304 and other non-errors have no body.
    responses[status] = Number(status) < 400 ? { description } : { description, content: { "application/json": { schema: problem } } };
  }
  return {
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    operationId: `${endpoint.method.toLowerCase()}${endpoint.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    parameters: [...parameters(endpoint.params, "path", components), ...parameters(endpoint.query, "query", components)],
    ...(endpoint.body ? { requestBody: requestBody(endpoint, convert(endpoint.body, "input", components)) } : {}),
    responses,
    security: [...new Set(credentials.map((c) => (c === "session" ? "session" : "bearer")))].map((scheme) => ({ [scheme]: [] })),
  };
}

/** JSON for the API; the OAuth endpoints take the RFCs' form encoding (and some JSON as well). */
function requestBody(endpoint: Endpoint, schema: JsonSchema) {
  if (!endpoint.oauth) return { required: true, content: { "application/json": { schema } } };
  const form = { "application/x-www-form-urlencoded": { schema } };
  return { required: false, content: endpoint.oauth.body === "form" ? form : { ...form, "application/json": { schema } } };
}

/** OpenAPI 3.1 for every endpoint, from the same zod schemas the routes parse with. */
export function buildOpenApiDocument(baseUrl: string) {
  const components: Record<string, JsonSchema> = {
    ValidationError: validationErrorSchema,
    HTTPValidationError: { type: "object", properties: { detail: { type: "array", items: { $ref: "#/components/schemas/ValidationError" } } } },
    Problem: problemSchema,
    OAuthError: oauthErrorSchema,
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of allEndpoints) {
    paths[endpoint.path] ??= {};
    paths[endpoint.path][endpoint.method.toLowerCase()] = operation(endpoint, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Verbatim",
      version: "0.1.0",
      description: "Timestamped transcripts from video and audio links, podcasts and uploads.",
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API key (vbt_…) or an OAuth access token." },
        session: { type: "apiKey", in: "cookie", name: "authjs.session-token", description: "Dashboard session." },
      },
    },
  };
}
