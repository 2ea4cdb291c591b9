import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { NextRequest } from "next/server";
import { authenticate, type Principal } from "@/lib/auth/principal";
import { readBodyBytes } from "@/lib/http/body";
import { ApiError, errors, internalErrorResponse } from "@/lib/http/errors";
import type { ErrorCode } from "@/lib/http/error-codes";
import { parseJsonBody } from "@/lib/http/json-body";
import { limitRequest, withRateLimitHeaders } from "@/lib/http/rate-limits";
import { RequestValidationError } from "@/lib/http/validation";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import type { ResolveDeps as PodcastDeps } from "@/lib/podcasts/resolve-podcast";
import { originAllowed, wwwAuthenticate } from "@/lib/mcp/metadata";
import { mcpResource } from "@/lib/oauth/config";
import { registerTools, TOOL_NAMES } from "@/lib/mcp/tools";
import { answerUnknownToolCalls } from "@/lib/mcp/unknown-tool";
import { actingAs, teamActor } from "@/lib/membership/actor";

// POST /mcp: the MCP endpoint over Streamable HTTP (MCP transport spec 2025-11-25), stateless: every POST
// gets a fresh server and transport (the official SDK's web-standard transport) that answer it with JSON.
// Before MCP sees anything: the Origin check (DNS rebinding → 403), the bearer credential (an API key or an
// OAuth access token for this resource; else 401 pointing at the protected resource metadata), the `mcp`
// rate-limit row, and the body read with the app's one size-capped reader. GET (a server-to-client stream)
// and DELETE (ending a session) have nothing to serve without sessions: 405, as the spec allows.

const MAX_BODY_BYTES = 1024 * 1024;
const SERVER_INFO = { name: "verbatim", version: "0.1.0" };
const INSTRUCTIONS =
  "Verbatim turns video and audio links into transcripts with timestamps. Start with get_transcript; " +
  "if it returns a job_id, poll get_job. list_languages shows which caption languages a video has.";

export interface McpHandlerOptions {
  /** The caption sources (the app's real ones by default; tests point them at fakes). */
  deps: () => TranscriptDeps;
  /** The podcast feed fetcher's (the app's by default). */
  podcastDeps: () => PodcastDeps;
  /** How long get_transcript waits for a speech-recognition job (default 20 s). */
  waitMs?: number;
  /** How often it looks at the job meanwhile (default 1 s). */
  pollMs?: number;
}

export type McpRouteHandler = (request: NextRequest) => Promise<Response>;

export function createMcpHandler(options: McpHandlerOptions): McpRouteHandler {
  return async (request) => {
    let limit: Record<string, string> | undefined;
    try {
      if (!originAllowed(request.headers.get("origin")))
        throw errors.forbidden("Requests from this Origin are not allowed.");
      const principal = await authenticateMcp(request);
      limit = await limitRequest("mcp", request, principal.userId);
      if (request.method !== "POST") {
        return jsonAnswer(
          405,
          {
            detail: "This MCP endpoint is stateless: send JSON-RPC messages with POST.",
            code: "method_not_allowed" satisfies ErrorCode,
          },
          { allow: "POST", ...limit },
        );
      }
      const parsedBody = await readMessage(request);
      if (parsedBody === undefined) return rpcError(400, -32700, "Parse error: the body is empty.", limit);
      const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
      registerTools(server, {
        userId: principal.userId,
        principal,
        request,
        deps: options.deps(),
        podcastDeps: options.podcastDeps(),
        waitMs: options.waitMs ?? 20_000,
        pollMs: options.pollMs ?? 1000,
      });
      // The SDK announces tools.listChanged; a stateless server (no GET stream, no session) can never send that
      // notification, and its tool list never changes.
      server.server.registerCapabilities({ tools: { listChanged: false } });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      answerUnknownToolCalls(transport, TOOL_NAMES);
      try {
        const response = await actingAs(
          teamActor(principal),
          () =>
            transport.handleRequest(request, {
              parsedBody,
              authInfo: { token: "", clientId: principal.via, scopes: ["api"], extra: { userId: principal.userId } },
            }),
          principal.teamKey?.id ?? null,
        );
        return withRateLimitHeaders(response, limit);
      } finally {
        await server.close();
      }
    } catch (error) {
      if (error instanceof RequestValidationError)
        return rpcError(400, -32700, `Parse error: ${error.items[0]?.msg ?? "invalid JSON"}.`, limit);
      if (error instanceof ApiError) return apiErrorAnswer(error, limit);
      return internalErrorResponse(error, `${request.method} /mcp`);
    }
  };
}

/** An API key, or an OAuth access token bound to this endpoint (RFC 8707); anything else is a 401. */
async function authenticateMcp(request: NextRequest): Promise<Principal> {
  try {
    return await authenticate(request, "mcp", mcpResource());
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw challenge(error.code === "invalid_token");
    throw error;
  }
}

function challenge(invalidToken: boolean, detail?: string): ApiError {
  return new ApiError(
    invalidToken ? "invalid_token" : "unauthorized",
    detail ??
      (invalidToken
        ? "The credential is not valid or has been revoked."
        : "Missing credentials. Send 'Authorization: Bearer <API key or access token>'; the protected resource metadata names the authorization server."),
    { "WWW-Authenticate": wwwAuthenticate(invalidToken ? "invalid_token" : undefined) },
  );
}

async function readMessage(request: Request): Promise<unknown> {
  const bytes = await readBodyBytes(request, {
    maxBytes: MAX_BODY_BYTES,
    tooLarge: () => errors.payloadTooLarge("The JSON-RPC message is larger than 1 MiB."),
  });
  return parseJsonBody(bytes);
}

function apiErrorAnswer(error: ApiError, limit: Record<string, string> | undefined): Response {
  return jsonAnswer(error.status, { detail: error.detail, code: error.code }, { ...error.headers, ...limit });
}

function rpcError(status: number, code: number, message: string, limit: Record<string, string> | undefined): Response {
  return jsonAnswer(status, { jsonrpc: "2.0", error: { code, message }, id: null }, limit ?? {});
}

function jsonAnswer(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}
