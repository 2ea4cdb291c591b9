import { publishEndpoint } from "@/lib/publishing/endpoints";
import { publishTranscript } from "@/lib/publishing/publish";
import { publishResponseSchema } from "@/lib/publishing/schemas";

import type { RegisterTool, ToolContext } from "./context";
import { langInput, outputOf, urlInput } from "./inputs";
import { run } from "./run-tool";

export function registerPublishTranscript(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "publish_transcript",
    {
      title: "Publish a transcript",
      description:
        "Makes one of the caller's transcripts public at a stable link (/t/{slug}); publishing again after unpublishing brings back the same link. " +
        "The transcript must be in the caller's history (get it with get_transcript first).",
      inputSchema: {
        url: urlInput.describe(
          "The link the transcript was made from, or the source_url search_transcriptions gives for it (uploads and podcast episodes too)",
        ),
        lang: langInput,
      },
      outputSchema: outputOf(publishResponseSchema),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ url, lang }) =>
      run(ctx, publishEndpoint, async () => {
        const published = await publishTranscript(ctx.userId, { url, lang }, ctx.deps);
        return {
          content: [{ type: "text", text: `Published at ${published.url} (slug ${published.slug}).` }],
          structuredContent: published,
        };
      }),
  );
}
