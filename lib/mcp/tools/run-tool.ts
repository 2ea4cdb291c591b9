import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

import type { Endpoint } from "@/lib/http/endpoint";
import { ApiError, errors } from "@/lib/http/errors";
import { requiredRole, roleMeets, roleRefusalDetail } from "@/lib/http/permissions";
import { auditOperation } from "@/lib/auth/operation-audit";
import { limitRequest } from "@/lib/http/rate-limits";
import { RequestValidationError } from "@/lib/http/validation";
import { log } from "@/lib/observability/logger";

import type { ToolContext } from "./context";
import { namingTools } from "./naming-tools";

/**
 * Checks the caller's role against the REST operation's (reading and searching: a viewer's; the rest: a member's),
 * applies its rate-limit row, runs the tool, and turns our errors into tool errors.
 */
export async function run(
  ctx: ToolContext,
  endpoint: Endpoint,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    const needed = requiredRole(endpoint.method, endpoint.path, endpoint.auth);
    if (needed && !roleMeets(needed, ctx.role, ctx.hasPerson))
      throw errors.forbidden(roleRefusalDetail(needed, ctx.role));
    if (endpoint.rateLimit) await limitRequest(endpoint.rateLimit, ctx.request, ctx.userId);
    const result = await body();
    if (!result.isError) {
      // The tool's answer names what it acted on, as the REST operation's path and answer do.
      const named = (result.structuredContent ?? {}) as Record<string, unknown>;
      await auditOperation(`${endpoint.method} ${endpoint.path}`, ctx.principal, { params: named, result: named });
    }
    return result;
  } catch (error) {
    return toolError(error);
  }
}

export function toolError(error: unknown): CallToolResult {
  if (error instanceof ApiError) return errorResult(`${namingTools(error.detail)} (${error.code})`);
  if (error instanceof RequestValidationError) {
    return errorResult(
      `Invalid input: ${error.items.map((item) => `${item.loc.slice(1).join(".") || "value"}: ${item.msg}`).join("; ")}`,
    );
  }
  if (error instanceof z.ZodError) {
    return errorResult(
      `Invalid input: ${error.issues.map((issue) => `${issue.path.join(".") || "value"}: ${issue.message}`).join("; ")}`,
    );
  }
  log.error({ err: error }, "MCP tool failed");
  return errorResult("Something went wrong on our side. Try again; if it keeps happening, contact support.");
}

export function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}
