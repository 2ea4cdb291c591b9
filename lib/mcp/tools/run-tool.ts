import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

import type { Endpoint } from "@/lib/http/endpoint";
import { ApiError } from "@/lib/http/errors";
import { runOperation } from "@/lib/auth/operation";
import { RequestValidationError } from "@/lib/http/validation";
import { log } from "@/lib/observability/logger";

import type { ToolContext } from "./context";
import { namingTools } from "./naming-tools";

/**
 * Runs the tool as its REST operation runs (lib/auth/operation.ts: the operation's least role, e.g. a viewer's for
 * reading and searching and a member's for the rest, its rate-limit row, the audit line), and turns our errors
 * into tool errors.
 */
export async function run(
  ctx: ToolContext,
  endpoint: Endpoint,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await runOperation(
      endpoint,
      { request: ctx.request, principal: ctx.principal },
      {
        handle: body,
        succeeded: (result) => !result.isError,
        // The tool's answer names what it acted on, as the REST operation's path and answer do.
        audited: (_input, result) => {
          const named = result.structuredContent ?? {};
          return { params: named, result: named };
        },
      },
    );
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
