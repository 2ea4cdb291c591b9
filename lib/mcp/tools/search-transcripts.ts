import { z } from "zod";

import { searchLibraryEndpoint } from "@/lib/search/endpoints";
import { searchQuerySchema, searchResponseSchema, SEARCH_QUERY_MAX } from "@/lib/search/schemas";
import { searchLibrary } from "@/lib/search/search-moments";
import { HISTORY_PLATFORMS, langSchema } from "@/lib/transcripts/schemas";
import { searchText } from "@/lib/mcp/render";

import type { RegisterTool, ToolContext } from "./context";
import { outputOf } from "./inputs";
import { run } from "./run-tool";

export function registerSearchTranscripts(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "search_transcripts",
    {
      title: "Search inside my transcripts",
      description:
        "Finds what was said in the caller's transcripts: the moments that match, most relevant first (at most 3 per transcript), " +
        "each with its [hh:mm:ss] time, a short snippet (matched words in **bold**) and a link that opens the video at that moment. " +
        'Query syntax: words (any form: "colonize" finds "colonized"), "quoted phrases", -excluded, OR. A question or description ' +
        "in other words also finds the moments that mean it (mode hybrid, the default; keyword: only the words said). Use it to answer questions " +
        "about what a video or podcast said; read more around a moment with get_transcript.",
      inputSchema: {
        q: z.string().min(1).max(SEARCH_QUERY_MAX).describe('What was said: words, "a phrase", -exclude, OR'),
        platform: z.enum(HISTORY_PLATFORMS).optional(),
        lang: langSchema.optional().describe("Only transcripts in this language"),
        limit: z.int().min(1).max(20).default(10).describe("Moments per answer (default 10, at most 20)"),
        cursor: z.string().max(100).optional().describe("next_cursor of the previous answer, for more moments"),
        mode: z
          .enum(["hybrid", "keyword", "meaning"])
          .optional()
          .describe(
            "hybrid (default): the words said and what the query means; keyword: only the words; meaning: only by meaning",
          ),
      },
      outputSchema: outputOf(searchResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      run(ctx, searchLibraryEndpoint, async () => {
        const query = searchQuerySchema.parse({ ...args, limit: String(args.limit) });
        const found = await searchLibrary(ctx.userId, query);
        return { content: [{ type: "text", text: searchText(query.q, found) }], structuredContent: found };
      }),
  );
}
