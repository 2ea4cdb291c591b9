import { createHash, randomBytes } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { link, lstat, open, readdir, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { isCandidate, isInside, isWalkedFolder, tempName } from "./names";

// The watch folder's file system work. Every path is checked against the folder's real path: symlinks are never
// followed (one whose target is outside is reported as refused), files are opened with O_NOFOLLOW, and a folder is
// checked to be where it should be before anything is written into it.

export interface FolderFile {
  /** Relative to the folder, with `/` (also the key the database keeps). */
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

export interface Walk {
  files: FolderFile[];
  /** Symlinks whose target is outside the folder (or cannot be resolved). */
  refused: string[];
}

/** Deepest folder level read below the watch folder. */
const MAX_DEPTH = 8;
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** The regular files under `root` (its real path) that may be recordings, depth-first, sorted by name. */
export async function walkFolder(root: string): Promise<Walk> {
  const walk: Walk = { files: [], refused: [] };
  await walkInto(root, "", 0, walk);
  return walk;
}

async function walkInto(root: string, relDir: string, depth: number, walk: Walk): Promise<void> {
  const dir = path.join(root, relDir);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) {
      // Never followed: a target inside the folder is read under its own name; one outside is refused.
      const target = await realpath(path.join(root, rel)).catch(() => null);
      if (target === null || !isInside(root, target)) walk.refused.push(rel);
      continue;
    }
    if (entry.isDirectory()) {
      if (depth < MAX_DEPTH && isWalkedFolder(entry.name)) await walkInto(root, rel, depth + 1, walk);
      continue;
    }
    if (!entry.isFile() || !isCandidate(entry.name)) continue;
    const stats = await lstat(path.join(root, rel)).catch(() => null);
    if (!stats?.isFile()) continue;
    walk.files.push({ rel, abs: path.join(root, rel), size: stats.size, mtimeMs: stats.mtimeMs });
  }
}

/** SHA-256 (hex) of a file, streamed: the reads run in libuv's pool and each 1 MiB update is a short turn. */
export async function hashFile(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | NO_FOLLOW);
  const hash = createHash("sha256");
  // The stream owns the handle from here and closes it.
  for await (const chunk of createReadStream("", { fd: handle, highWaterMark: 1024 * 1024 }))
    hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The first `bytes` of a file (fewer when it is shorter), opened without following a symlink. */
export async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | NO_FOLLOW);
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Throws unless `dir` (under `root`) resolves to itself: no component of it was replaced by a symlink. */
async function assertPlainFolder(root: string, dir: string): Promise<void> {
  const real = await realpath(dir);
  if (real !== dir || !isInside(root, real)) throw new Error(`refused: ${dir} is not a folder inside ${root}`);
}

/**
 * Writes `content` as `name` in `dir` unless something already has that name (a file Verbatim wrote before, or the
 * person's own: never replaced). Atomic: the bytes go to a hidden temporary name, then take their own name with
 * link(2), which fails rather than replace; where the file system has no hard links (exFAT, some network shares),
 * a rename after checking the name is free. Returns false when the name was taken.
 */
export async function writeBeside(root: string, dir: string, name: string, content: string): Promise<boolean> {
  await assertPlainFolder(root, dir);
  const target = path.join(dir, name);
  if (await exists(target)) return false;
  const temp = path.join(dir, tempName(name, randomBytes(6).toString("hex")));
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o644);
  try {
    try {
      await handle.writeFile(content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temp, target);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw error;
      if (await exists(target)) return false;
      await rename(temp, target);
      return true;
    }
  } finally {
    // Only the temporary file this call made (gone already when it was renamed).
    await unlink(temp).catch(() => undefined);
  }
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}
