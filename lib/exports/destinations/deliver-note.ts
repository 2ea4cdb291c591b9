import type { ExportDelivery, ExportDestination } from "@/lib/generated/prisma/client";
import { openSecret } from "@/lib/auth/secret-box";
import { env } from "@/lib/env";
import type { Outbound } from "@/lib/http/outbound";
import { readNotes } from "../read-notes";
import { deliverToNotion } from "./deliver-notion";
import { NotionError } from "./notion-client";
import { writeNoteFile } from "./write-folder";

/** What one attempt did: where the note now is, and anything the person should be told. */
export interface Delivered {
  /** `kept`: the person's edited note was left as it is (a folder). */
  status: "delivered" | "kept";
  remoteRef: string;
  remoteDigest: string | null;
  note: string | null;
}

/** A failed attempt: why, whether another can help, and the least wait the destination asked for. */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = "DeliveryFailure";
  }
}

/**
 * One transcript to one destination, as the account sees it now (its newest correction). Read through the
 * account's own finished history: a transcript it no longer holds (deleted, or a team's that the destination's
 * account lost) is never delivered.
 */
export async function deliverNote(
  destination: ExportDestination,
  delivery: ExportDelivery,
  outbound: Outbound,
  deadline: number,
): Promise<Delivered> {
  const notes = readNotes(
    destination.userId,
    { userId: destination.userId, state: "done", transcriptId: delivery.transcriptId },
    env().APP_URL,
  );
  const first = await notes.next();
  await notes.return(undefined as never);
  if (first.done || !first.value)
    throw new DeliveryFailure("The transcript is no longer in this account's library; nothing was delivered.", false);
  const { name, content } = first.value;
  if (destination.kind === "folder") {
    const root = env().EXPORT_FOLDER_ROOT;
    if (!root) throw new DeliveryFailure("Folder destinations are off on this server (EXPORT_FOLDER_ROOT).", true);
    try {
      const written = await writeNoteFile(root, destination.target, name, content, delivery.remoteDigest);
      return {
        status: written.outcome === "kept" ? "kept" : "delivered",
        remoteRef: name,
        remoteDigest: written.digest,
        note: written.why ?? (written.merged ? "Merged into the note you edited: your part was kept." : null),
      };
    } catch (error) {
      throw new DeliveryFailure(`The note could not be written: ${describe(error)}`, true);
    }
  }
  if (!destination.secretCipher) throw new DeliveryFailure("The destination has no token.", false);
  let token: string;
  try {
    token = openSecret("exportDestination", destination.secretCipher);
  } catch {
    throw new DeliveryFailure(
      "The stored token cannot be read (the server's AUTH_SECRET changed): add the destination again.",
      false,
    );
  }
  try {
    const { pageId, note } = await deliverToNotion({
      outbound,
      baseUrl: env().NOTION_API_URL,
      token,
      databaseId: destination.target,
      note: content,
      previousPageId: delivery.remoteRef,
      deadline,
    });
    return { status: "delivered", remoteRef: pageId, remoteDigest: null, note };
  } catch (error) {
    if (error instanceof NotionError) throw new DeliveryFailure(error.message, error.retryable, error.retryAfterMs);
    throw new DeliveryFailure(describe(error), true);
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}
