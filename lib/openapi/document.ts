import { z, type ZodType } from "zod";
import type { Endpoint } from "@/lib/http/endpoint";
import { ERROR_CODE_NAMES } from "@/lib/http/error-codes";
import {
  allowedKinds,
  CREDENTIAL_KINDS,
  NO_KEY,
  requiredRole,
  requiredScope,
  type RoleRequirement,
} from "@/lib/http/permissions";
import { allEndpoints } from "@/lib/openapi/endpoints";
import { PARAMETER_EXAMPLES, REQUEST_BODY_EXAMPLES } from "@/lib/openapi/examples";
import { WEBHOOK_EVENT_DOCS } from "@/lib/webhooks/schemas";

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
  properties: {
    detail: { type: "string" },
    code: {
      type: "string",
      enum: ERROR_CODE_NAMES,
      description:
        "The machine code; each code's status, retryability and meaning: lib/http/error-codes.ts (the typed client exports it as ERROR_CODES)",
    },
  },
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
    ...(name in PARAMETER_EXAMPLES && where === "query" ? { example: PARAMETER_EXAMPLES[name] } : {}),
  }));
}

const ROLE_REFUSAL: Record<Exclude<RoleRequirement, "viewer">, string> = {
  member: "In a team: needs the member role (a viewer only reads and searches)",
  admin: "In a team: needs the admin role",
  owner: "In a team: needs the owner role (a team's API key acts as an admin)",
  person: "A person's own: refused for a team's API key",
};

/** What a team's named key needs here (lib/http/permissions.ts's scope column). */
function scopeRefusal(endpoint: Endpoint): string {
  const scope = requiredScope(endpoint.method, endpoint.path, endpoint.auth);
  return scope === NO_KEY
    ? "Refused for a team's named key, whatever its scopes"
    : `A team's named key needs the '${scope}' scope`;
}

function operation(endpoint: Endpoint, components: Record<string, JsonSchema>) {
  const credentials = allowedKinds(endpoint.auth);
  const success = endpoint.content
    ? { description: "Success", content: mediaTypes(endpoint.content, components) }
    : endpoint.response === null
      ? { description: "No content" }
      : {
          description: "Success",
          content: {
            "application/json": { schema: endpoint.response ? convert(endpoint.response, "output", components) : {} },
          },
        };
  const responses: Record<string, unknown> = { [String(endpoint.status ?? 200)]: success };
  if (endpoint.accepted) {
    responses["202"] = {
      description: endpoint.accepted.description,
      content: { "application/json": { schema: convert(endpoint.accepted.schema, "output", components) } },
    };
  }
  const hasInput = endpoint.query || endpoint.body || endpoint.params;
  const problem = { $ref: `#/components/schemas/${endpoint.oauth ? "OAuthError" : "Problem"}` };
  const validation = { $ref: "#/components/schemas/HTTPValidationError" };
  if (hasInput && !endpoint.oauth) {
    responses["422"] = { description: "Validation Error", content: { "application/json": { schema: validation } } };
  }
  if (credentials.length > 0) {
    responses["401"] = {
      description: "Missing or invalid credentials",
      content: { "application/json": { schema: problem } },
    };
  }
  const role = requiredRole(endpoint.method, endpoint.path, endpoint.auth);
  const refusals = [
    ...(credentials.length > 0 && credentials.length < CREDENTIAL_KINDS.length
      ? [
          `Only ${credentials.join(", ")} credentials (an OAuth app's, a device login's or the extension's token is refused: lib/http/permissions.ts)`,
        ]
      : []),
    ...(role && role !== "viewer" ? [ROLE_REFUSAL[role]] : []),
    ...(credentials.includes("api_key") && role !== "person" ? [scopeRefusal(endpoint)] : []),
  ];
  if (refusals.length > 0 && !endpoint.errors?.[403]) {
    responses["403"] = { description: refusals.join(". "), content: { "application/json": { schema: problem } } };
  }
  if (endpoint.rateLimit) {
    responses["429"] = {
      description: "Too many requests (see Retry-After and the RateLimit-* headers)",
      content: { "application/json": { schema: problem } },
    };
  }
  for (const [status, description] of Object.entries(endpoint.errors ?? {})) {
    // A 422 of the endpoint's own is sent besides the schema's validation errors: either shape.
    const schema = status === "422" && hasInput && !endpoint.oauth ? { anyOf: [validation, problem] } : problem;
    responses[status] =
      status === "206" && endpoint.content
        ? { description, content: mediaTypes(endpoint.content, components) }
        : Number(status) < 400
          ? { description } // 304, redirects: no body
          : { description, content: { "application/json": { schema } } };
  }
  return {
    tags: [isInbound(endpoint) ? INBOUND_TAG : endpoint.tag],
    // Called by providers, not by clients: kept in the document (and the fuzzer), hidden from /docs.
    ...(isInbound(endpoint) ? { "x-internal": true } : {}),
    summary: endpoint.summary,
    // The least role in the workspace acted in (a team's; a person owns their own): lib/http/permissions.ts.
    ...(role ? { "x-role": role } : {}),
    ...(endpoint.description ? { description: endpoint.description } : {}),
    operationId: `${endpoint.method.toLowerCase()}${endpoint.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    parameters: [
      ...parameters(endpoint.params, "path", components),
      ...parameters(endpoint.query, "query", components),
    ],
    ...(endpoint.body
      ? {
          requestBody: requestBody(
            endpoint,
            convert(endpoint.body, "input", components),
            REQUEST_BODY_EXAMPLES[`${endpoint.method} ${endpoint.path}`],
          ),
        }
      : {}),
    responses,
    security: [...new Set(credentials.map((c) => (c === "session" ? "session" : "bearer")))].map((scheme) => ({
      [scheme]: [],
    })),
  };
}

function mediaTypes(content: NonNullable<Endpoint["content"]>, components: Record<string, JsonSchema>) {
  return Object.fromEntries(
    Object.entries(content).map(([type, body]) => [
      type,
      {
        schema:
          body === "text"
            ? { type: "string" }
            : body === "binary"
              ? { type: "string", contentMediaType: type }
              : convert(body, "output", components),
      },
    ]),
  );
}

/** JSON for the API; the OAuth endpoints take the RFCs' form encoding (and some JSON as well). */
function requestBody(endpoint: Endpoint, schema: JsonSchema, example: Record<string, unknown> | undefined) {
  const media = { schema, ...(example ? { example } : {}) };
  if (!endpoint.oauth) return { required: true, content: { "application/json": media } };
  const form = { "application/x-www-form-urlencoded": media };
  return { required: false, content: endpoint.oauth.body === "form" ? form : { ...form, "application/json": media } };
}

const INBOUND_TAG = "Inbound webhooks";
const isInbound = (endpoint: Endpoint) => endpoint.path.startsWith("/v1/webhooks/");

/** The reference's sections, in this order (Transcripts first); tags not listed follow. */
const TAGS: { name: string; description: string }[] = [
  {
    name: "Transcripts",
    description: "Transcribe a link, an audio URL or an upload; poll jobs; read, download and delete your history.",
  },
  {
    name: "Search",
    description:
      "Find what was said: moments in your transcripts or in the public library, with timestamps and deep links.",
  },
  { name: "Publishing", description: "Public pages for your transcripts, and the public index." },
  { name: "Podcasts", description: "Resolve a feed, an Apple Podcasts link or an episode's audio." },
  { name: "Imports", description: "A whole feed, playlist or channel as one batch." },
  {
    name: "Batches",
    description: "A list of up to a thousand links as one batch: progress, retry, one zip of every result.",
  },
  { name: "Follows", description: "A show followed: each new episode or video transcribed as it appears." },
  {
    name: "Exports",
    description: "Transcripts out as Markdown notes for a notes app (Obsidian, Logseq): one file, or a zip of many.",
  },
  {
    name: "Alerts",
    description:
      "Saved searches: a transcript newly in their scope that matches is delivered by webhook, e-mail, Atom feed and inbox.",
  },
  { name: "Uploads", description: "Signed upload targets for your own files." },
  { name: "Account", description: "Who you are signed in as: user, tier and the credential used." },
  { name: "API keys", description: "Your one API key." },
  { name: "Billing", description: "Plans, your allowance and usage, checkout and subscription changes." },
  {
    name: "Teams",
    description:
      "Workspaces shared by people: members and roles, invitations by e-mail, ownership, the audit trail and per-member usage.",
  },
  {
    name: "Webhooks",
    description:
      "Be told when jobs and imports finish: endpoints that receive signed events (Standard Webhooks), their deliveries, and the secret for per-request webhook_url.",
  },
  { name: "Sessions", description: "Dashboard sign-ins." },
  { name: "Connected apps", description: "Programs and connectors you signed in with the device flow or OAuth." },
  { name: "Device flow", description: "Sign-in for command-line clients (RFC 8628)." },
  { name: "OAuth", description: "The authorization server for connectors (RFC 8414, 7591, 7636, 7009)." },
  { name: "Health", description: "Liveness and dependencies." },
  { name: INBOUND_TAG, description: "Called by the billing and speech-recognition providers, not by clients." },
];

function tagRank(tag: string): number {
  const index = TAGS.findIndex((entry) => entry.name === tag);
  return index === -1 ? TAGS.length : index;
}

/** The reference's introduction (Markdown; Swagger UI shows it above the operations). */
function introduction(baseUrl: string): string {
  return `Timestamped transcripts from YouTube, X, TikTok, Facebook, Instagram, RedNote and Vimeo links, podcast episodes and uploaded files.

**Base URL:** \`${baseUrl}\`

**Authentication.** Send your API key (from the dashboard's **API key** page) on every request:
\`Authorization: Bearer vbt_…\`. Press **Authorize** below and paste it to try the operations here.

**One call, two outcomes.** \`POST /v1/transcript\` with \`{"url": "…", "lang": "en", "format": "srt"}\`:
- **200**: the platform has captions; the transcript is in the answer, in \`format\` (\`json\`, \`text\`, \`srt\`, \`vtt\`, \`md\`).
- **202**: no captions, so speech recognition runs as a job: \`{"job_id": "…", "status": "queued"}\`.

**Polling.** Ask \`GET /v1/jobs/{job_id}\` every couple of seconds until \`status\` is \`done\` (the
transcript is in \`transcript\`, the same shape as the 200 answer) or \`error\` (\`error.code\`, \`error.message\`).

**Errors.** 422 is a validation error: \`{"detail": [{"loc": ["body", "url"], "msg": "…", "type": "…"}]}\`.
Every other error is \`{"detail": "a sentence you can act on", "code": "machine_code"}\`: 401 missing or
wrong key, 402 monthly allowance used up, 404 not found, 429 too many requests (wait \`Retry-After\`
seconds), 502/503 the platform or a provider failed (503s say when to retry).

**Or be told.** Instead of polling, add an endpoint (\`POST /v1/me/webhooks\`) or pass \`webhook_url\` with the
request: \`transcript.completed\`, \`transcript.failed\`, \`import.completed\` and \`batch.completed\` arrive signed per Standard Webhooks.

Each transcript is charged once per source and language; asking again is free.`;
}

const WEBHOOK_HEADERS = [
  { name: "webhook-id", description: "The message id (`msg_…`): the same on every retry; de-duplicate on it" },
  { name: "webhook-timestamp", description: "Unix seconds of this attempt" },
  {
    name: "webhook-signature",
    description:
      "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` keyed with the base64-decoded part of the `whsec_` secret; two, space-separated, for 24 h after a rotation",
  },
];

/** The events Verbatim POSTs to webhook endpoints (OpenAPI 3.1 `webhooks`). */
function webhookOperations(components: Record<string, JsonSchema>) {
  return Object.fromEntries(
    WEBHOOK_EVENT_DOCS.map((event) => [
      event.type,
      {
        post: {
          tags: ["Webhooks"],
          summary: event.summary,
          description:
            "Signed per Standard Webhooks. Answer 2xx within WEBHOOK_TIMEOUT_MS; 410 disables the endpoint; anything else is retried for about a day.",
          operationId: `webhook${event.type.replace(/(^|\.)(.)/g, (_m, _dot: string, c: string) => c.toUpperCase())}`,
          parameters: WEBHOOK_HEADERS.map((header) => ({
            ...header,
            in: "header",
            required: true,
            schema: { type: "string" },
          })),
          requestBody: {
            required: true,
            content: { "application/json": { schema: convert(event.schema, "output", components) } },
          },
          // Verbatim is the caller here: the receiver authenticates it by the signature headers.
          security: [{ webhookSignature: [] }],
          responses: {
            "200": { description: "Received (any 2xx)" },
            "410": { description: "Gone: stop sending to this endpoint" },
          },
        },
      },
    ]),
  );
}

/** OpenAPI 3.1 for every endpoint, from the same zod schemas the routes parse with. */
export function buildOpenApiDocument(baseUrl: string) {
  const components: Record<string, JsonSchema> = {
    ValidationError: validationErrorSchema,
    HTTPValidationError: {
      type: "object",
      properties: { detail: { type: "array", items: { $ref: "#/components/schemas/ValidationError" } } },
    },
    Problem: problemSchema,
    OAuthError: oauthErrorSchema,
  };
  const paths: Record<string, Record<string, unknown>> = {};
  // Swagger UI lists sections in the order of `tags` and operations in the order of `paths`.
  const ordered = [...allEndpoints].sort(
    (a, b) => tagRank(isInbound(a) ? INBOUND_TAG : a.tag) - tagRank(isInbound(b) ? INBOUND_TAG : b.tag),
  );
  for (const endpoint of ordered) {
    paths[endpoint.path] ??= {};
    paths[endpoint.path][endpoint.method.toLowerCase()] = operation(endpoint, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Verbatim",
      version: "0.1.0",
      description: introduction(baseUrl),
      // Not open source: the API may be used under the service's terms.
      license: { name: "Proprietary (UNLICENSED)", url: `${baseUrl}/` },
    },
    servers: [{ url: baseUrl }],
    tags: TAGS,
    paths,
    webhooks: webhookOperations(components),
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API key (vbt_…) or an OAuth access token." },
        session: { type: "apiKey", in: "cookie", name: "authjs.session-token", description: "Dashboard session." },
        webhookSignature: {
          type: "apiKey",
          in: "header",
          name: "webhook-signature",
          description:
            "How a webhook receiver knows Verbatim sent the event: Standard Webhooks' HMAC over webhook-id, webhook-timestamp and the body, keyed with the endpoint's whsec_ secret.",
        },
      },
    },
  };
}
