import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { assertInsideRoot, folderUnder } from "./folder-path";
import { digestOf, mergeNote } from "./note-merge";

export interface FolderWrite {
  /** `written`: the file now holds the note (merged into the person's file when `merged`); `same`: it already did;
   * `kept`: the person's edit was kept and nothing was written (`why`). */
  outcome: "written" | "same" | "kept";
  merged?: boolean;
  why?: string;
  /** The file's digest as it now stands when Verbatim wrote it or found it current. */
  digest: string | null;
}

/**
 * Writes one note into the destination's folder: merged with what the person made of the file (note-merge.ts),
 * atomically (a temporary file beside it, flushed, then renamed over it: a reader or a sync client sees the old
 * file or the new, never half of one). The folder is made when missing, and checked to lie under the root.
 */
export async function writeNoteFile(
  root: string,
  relative: string,
  name: string,
  note: string,
  lastDigest: string | null,
): Promise<FolderWrite> {
  const folder = folderUnder(root, relative);
  await mkdir(folder, { recursive: true });
  await assertInsideRoot(root, folder);
  const file = path.join(folder, name);
  const existing = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  const merge = mergeNote(existing, note, lastDigest);
  if (merge.action === "same") return { outcome: "same", digest: existing === null ? null : digestOf(existing) };
  if (merge.action === "keep") return { outcome: "kept", why: merge.why, digest: lastDigest };
  const temp = path.join(folder, `.${name}.${randomBytes(6).toString("hex")}.verbatim-tmp`);
  try {
    const handle = await open(temp, "wx", 0o644);
    try {
      await handle.writeFile(merge.content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { outcome: "written", merged: merge.merged, digest: digestOf(merge.content) };
}
