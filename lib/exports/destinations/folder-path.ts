import path from "node:path";
import { realpath } from "node:fs/promises";

// A folder destination names a folder relative to the operator's EXPORT_FOLDER_ROOT: nothing else on the server is
// ever written. The name is checked when the destination is made (no `..`, no absolute path, no control
// characters) and the real path again at every write (a link inside the root that leads outside it is refused).

/** Why `relative` is not a folder under the root, or null when it is one. */
export function folderPathProblem(relative: string): string | null {
  if (relative.includes("\0") || /[\u0000-\u001f\u007f]/.test(relative)) return "must not hold control characters";
  if (path.isAbsolute(relative) || /^[a-zA-Z]:/.test(relative) || relative.startsWith("\\"))
    return "must be relative to the server's export folder (EXPORT_FOLDER_ROOT)";
  const parts = relative.split(/[\\/]+/).filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part === "..")) return "must not leave the server's export folder (no `..`)";
  return null;
}

/** The folder's path under `root` as given (not yet resolved through links). */
export function folderUnder(root: string, relative: string): string {
  const parts = relative.split(/[\\/]+/).filter((part) => part !== "" && part !== ".");
  return path.join(path.resolve(root), ...parts);
}

/** Throws unless `folder`, resolved through any link, still lies under `root` resolved the same way. */
export async function assertInsideRoot(root: string, folder: string): Promise<void> {
  const [realRoot, realFolder] = await Promise.all([realpath(root), realpath(folder)]);
  const rel = path.relative(realRoot, realFolder);
  if (rel.startsWith("..") || path.isAbsolute(rel))
    throw new Error("The folder leads outside the server's export folder (a link); nothing was written.");
}
