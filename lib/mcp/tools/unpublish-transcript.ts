import { z } from "zod";

import { unpublishEndpoint } from "@/lib/publishing/endpoints";
import { unpublishTranscript } from "@/lib/publishing/publish";

import type { RegisterTool, ToolContext } from "./context";
import { run } from "./run-tool";

const unpublishedSchema = z.object({ slug: z.string(), published: z.literal(false) });

export function registerUnpublishTranscript(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "unpublish_transcript",
    {
      title: "Unpublish a transcript",
      description: "Takes a published transcript off its public link (the slug is kept; publishing again restores it).",
      inputSchema: { slug: z.string().min(1).max(200).describe("The slug publish_transcript returned") },
      outputSchema: unpublishedSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ slug }) =>
      run(ctx, unpublishEndpoint, async () => {
        await unpublishTranscript(ctx.userId, slug);
        return {
          content: [{ type: "text", text: `Unpublished ${slug}.` }],
          structuredContent: { slug, published: false },
        };
      }),
  );
}
