import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

import { refuseUnstorable } from "@/lib/http/validation";

import type { RegisterTool, ToolContext } from "./context";
import { registerGetTranscript } from "./get-transcript";
import { registerGetJob } from "./get-job";
import { registerListLanguages } from "./list-languages";
import { registerSearchTranscriptions } from "./search-transcriptions";
import { registerSearchTranscripts } from "./search-transcripts";
import { registerPublishTranscript } from "./publish-transcript";
import { registerEditTranscript } from "./edit-transcript";
import { registerExportNote } from "./export-note";
import { registerUnpublishTranscript } from "./unpublish-transcript";
import { registerResolvePodcast } from "./resolve-podcast";
import { registerGetUsage } from "./get-usage";
import { registerAlertTools } from "./alerts";
import { toolError } from "./run-tool";

// The MCP tools, one file each: each one calls the same lib/ function as its REST operation, under the same
// rate-limit row, and answers with text a model reads well plus the REST answer as structuredContent; a transcript
// is in the text only, once, in pages (transcript-page.ts), and structuredContent says what it is and which part.
// An ApiError (or a validation failure) becomes a tool result with isError and the error's sentence, so the model
// can act on it; anything unexpected is logged and answered without details (run-tool.ts). This file is the
// connector's table of contents: the tools in the order tools/list gives them.

export type { ToolContext } from "./context";
export { namingTools } from "./naming-tools";
export { toolError } from "./run-tool";

/** The tools registerTools registers (a call naming any other is a JSON-RPC error: lib/mcp/unknown-tool.ts). */
export const TOOL_NAMES: ReadonlySet<string> = new Set([
  "get_transcript",
  "get_job",
  "list_languages",
  "search_transcriptions",
  "search_transcripts",
  "publish_transcript",
  "unpublish_transcript",
  "resolve_podcast",
  "get_usage",
  "edit_transcript",
  "export_note",
  "create_alert",
  "list_alerts",
  "get_alert_matches",
  "pause_alert",
  "delete_alert",
]);

export function registerTools(server: McpServer, ctx: ToolContext): void {
  // Every tool's arguments are held to the storable-text rule (lib/db/storable-text.ts) before it runs, as
  // REST bodies and queries are in parseInput: a NUL or an unpaired surrogate is an "Invalid input" result.
  const tool = ((name: string, config: unknown, callback: (args: unknown, extra: unknown) => unknown) =>
    server.registerTool(
      name,
      config as never,
      ((args: unknown, extra: unknown) => {
        try {
          refuseUnstorable(args, "arguments");
        } catch (error) {
          return toolError(error);
        }
        return callback(args, extra);
      }) as never,
    )) as RegisterTool;

  registerGetTranscript(tool, ctx);
  registerGetJob(tool, ctx);
  registerListLanguages(tool, ctx);
  registerSearchTranscriptions(tool, ctx);
  registerSearchTranscripts(tool, ctx);
  registerPublishTranscript(tool, ctx);
  registerEditTranscript(tool, ctx);
  registerExportNote(tool, ctx);
  registerUnpublishTranscript(tool, ctx);
  registerResolvePodcast(tool, ctx);
  registerGetUsage(tool, ctx);
  registerAlertTools(tool, ctx);
}
