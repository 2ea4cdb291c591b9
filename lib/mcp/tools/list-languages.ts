import { spokenDuration } from "@/lib/formats/spoken-duration";
import { listLanguagesEndpoint } from "@/lib/transcripts/endpoints";
import { listLanguages } from "@/lib/transcripts/list-languages";
import { languagesResponseSchema } from "@/lib/transcripts/schemas";

import type { RegisterTool, ToolContext } from "./context";
import { outputOf, urlInput } from "./inputs";
import { run } from "./run-tool";

export function registerListLanguages(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "list_languages",
    {
      title: "List caption languages",
      description:
        "Which caption languages a video has (manual and auto-generated), with its title and duration. Free: nothing is transcribed or charged.",
      inputSchema: { url: urlInput.describe("The video link") },
      outputSchema: outputOf(languagesResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ url }) =>
      run(ctx, listLanguagesEndpoint, async () => {
        const info = await listLanguages(url, ctx.deps);
        const lines = info.languages.map((l) => `- ${l.code}: ${l.name} (${l.kind})`);
        const text = `${info.title ?? info.video_id} (${info.platform}, ${spokenDuration(info.duration_seconds)})\n${lines.length > 0 ? lines.join("\n") : "No captions: get_transcript will use speech recognition."}`;
        return { content: [{ type: "text", text }], structuredContent: info };
      }),
  );
}
