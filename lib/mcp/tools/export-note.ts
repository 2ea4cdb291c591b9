import { z } from "zod";

import { exportNotesEndpoint } from "@/lib/exports/endpoints";
import { exportNote } from "@/lib/exports/export-notes";

import type { RegisterTool, ToolContext } from "./context";
import { run } from "./run-tool";

const exportedSchema = z.object({
  file_name: z.string(),
  transcript_id: z.string(),
  total_characters: z.int(),
  offset: z.int(),
  next_offset: z.int().nullable(),
});

export function registerExportNote(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "export_note",
    {
      title: "Export a transcript as a Markdown note",
      description:
        "One transcript from the caller's history as a note for a notes app (Obsidian, Logseq): YAML front matter (title, source, channel or show, dates, duration, language, speakers, tags, id), chapters as headings, each paragraph's timestamp a link to that moment. " +
        "Save the text under file_name; it is the same name on every export. A long note comes in parts: call again with next_offset until it is null. " +
        "A whole library or a selection as a zip: POST /v1/exports or `verbatim export`.",
      inputSchema: {
        transcript_id: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .describe("The transcript's id (search_transcriptions, or get_transcript's answer)"),
        offset: z
          .int()
          .min(0)
          .default(0)
          .describe("Where this part starts, in characters (next_offset of the part before)"),
        max_characters: z.int().min(1000).max(200_000).default(50_000),
      },
      outputSchema: exportedSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ transcript_id, offset, max_characters }) =>
      run(ctx, exportNotesEndpoint, async () => {
        const note = await exportNote(ctx.userId, transcript_id);
        let end = Math.min(note.content.length, offset + max_characters);
        // Never split a character written as two UTF-16 units.
        if (end < note.content.length && /[\ud800-\udbff]/.test(note.content[end - 1] ?? "")) end -= 1;
        const part = note.content.slice(offset, end);
        const next = end < note.content.length ? end : null;
        return {
          content: [{ type: "text", text: part }],
          structuredContent: {
            file_name: note.name,
            transcript_id,
            total_characters: note.content.length,
            offset,
            next_offset: next,
          },
        };
      }),
  );
}
