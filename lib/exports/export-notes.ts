import { create } from "content-disposition";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { readNotes } from "./read-notes";
import type { ExportRequest } from "./schemas";
import { selectEntries } from "./select";
import { zipStream } from "./zip";

const MARKDOWN = "text/markdown; charset=utf-8";

/**
 * POST /v1/exports: the selected transcripts of the caller's library as notes: one transcript named by id as its
 * `.md` file, anything else as a zip of them streamed as it is built. `X-Export-Count` says how many notes it holds.
 */
export async function exportNotes(accountId: string, request: ExportRequest): Promise<Response> {
  const selection = await selectEntries(accountId, request);
  const appUrl = env().APP_URL;
  const notes = readNotes(accountId, selection.where, appUrl);
  const headers = { "x-export-count": String(selection.count), "cache-control": "no-store" };
  if (selection.single && !request.zip) {
    const note = await firstNote(notes);
    return new Response(note.content, {
      headers: { ...headers, "content-type": MARKDOWN, "content-disposition": attachment(note.name) },
    });
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(zipStream(notes), {
    headers: {
      ...headers,
      "content-type": "application/zip",
      "content-disposition": attachment(`Verbatim notes ${day}.zip`),
    },
  });
}

/**
 * One transcript of the caller's history as its note (MCP's export_note): its file name and its text, as the export
 * of that id alone would answer it.
 */
export async function exportNote(accountId: string, transcriptId: string): Promise<{ name: string; content: string }> {
  const selection = await selectEntries(accountId, { ids: [transcriptId], format: "md", zip: false });
  const { name, content } = await firstNote(readNotes(accountId, selection.where, env().APP_URL));
  return { name, content };
}

async function firstNote<T>(notes: AsyncGenerator<T>): Promise<T> {
  const { value, done } = await notes.next();
  await notes.return(undefined as never);
  if (done || !value) throw errors.notFound("No transcript with this id in your history.");
  return value;
}

/** `attachment` with the name as RFC 5987 UTF-8 and a plain-ASCII fallback for old clients. */
function attachment(name: string): string {
  const ascii = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]+/g, "_")
    .replace(/[%\\"]/g, "_");
  return create(name, { fallback: ascii });
}
