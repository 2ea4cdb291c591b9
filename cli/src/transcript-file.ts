import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Schemas } from "./api";
import type { Context } from "./context";

// A transcript as the person gets it: its text on stdout, or a file (several go into a folder, each
// named <video id>.<lang>.<ext>).

export type Transcript = Schemas["Transcript"];

const EXTENSIONS: Record<string, string> = { json: "json", text: "txt", srt: "srt", vtt: "vtt", md: "md" };

/** The transcript as its file: `content` for the text formats, the JSON object for json. */
export function rendered(transcript: Transcript): string {
  if (transcript.format === "json" || transcript.content === null) return `${JSON.stringify(transcript, null, 2)}\n`;
  return transcript.content.endsWith("\n") ? transcript.content : `${transcript.content}\n`;
}

function fileName(transcript: Transcript): string {
  const base = `${transcript.video_id}.${transcript.lang}`.replace(/[^\w.-]+/g, "_").replace(/^[._]+/, "");
  return `${base || "transcript"}.${EXTENSIONS[transcript.format] ?? transcript.format}`;
}

export async function writeTranscript(
  ctx: Context,
  transcript: Transcript,
  output: string | undefined,
  intoDirectory: boolean,
): Promise<void> {
  if (!output || output === "-") {
    if (!ctx.out.json) ctx.out.write(rendered(transcript));
    return;
  }
  const file = intoDirectory ? path.join(output, fileName(transcript)) : output;
  await writeFile(file, rendered(transcript));
  ctx.out.info(
    `Wrote ${file} (${transcript.title ?? transcript.video_id}, ${transcript.source === "asr" ? "speech recognition" : "captions"})`,
  );
}
