/**
 * Temporary directories for the audio steps: one directory per job, always removed.
 *
 *   const text = await withTempDir("asr", async (dir, files) => {
 *     const src = await downloadAudioUrl(url, dir, { outbound, maxBytes, signal });
 *     const out = await convertForAsr(src.path, files.path("asr"), { signal });
 *     await files.remove(src.path); // free the disk early
 *     return transcribe(out.path);
 *   }, { signal });
 *
 * The directory is removed in a `finally` once `fn` settles: after success, after an error, and after
 * an abort (the steps take the same signal and stop their downloads and child processes, so nothing
 * writes into the directory after it is gone). Directories still alive when the process exits normally
 * are removed by an `exit` hook; after a crash (SIGKILL, OOM) `removeStaleTempDirs` sweeps them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** Every directory we create starts with this, so a sweep never touches anything else. */
export const TEMP_DIR_PREFIX = "verbatim-";

const PREFIX_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/i;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface TempDirOptions {
  /** Parent directory. Default: os.tmpdir(). */
  root?: string;
  /** Refuses to start when already aborted; `fn` receives it to pass on to its steps. */
  signal?: AbortSignal;
}

/** Directories created and not yet removed, for the exit hook. */
const live = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const dir of live) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // best effort at exit
      }
    }
  });
}

function checkPrefix(prefix: string): void {
  if (!PREFIX_PATTERN.test(prefix))
    throw new Error(`Temp dir prefix must match ${PREFIX_PATTERN}: ${JSON.stringify(prefix)}`);
}

/**
 * A private temporary directory (mode 0700, from mkdtemp) and the files in it. Names handed to
 * `path()` are plain file names: no separators, no `..`, so every path stays inside `dir`.
 */
export class TempFiles {
  private removed = false;

  private constructor(readonly dir: string) {}

  static async create(prefix: string, opts: Pick<TempDirOptions, "root"> = {}): Promise<TempFiles> {
    checkPrefix(prefix);
    const dir = await mkdtemp(path.join(opts.root ?? os.tmpdir(), `${TEMP_DIR_PREFIX}${prefix}-`));
    live.add(dir);
    installExitHook();
    return new TempFiles(dir);
  }

  /** Synchronous variant, for scripts and tests. */
  static createSync(prefix: string, opts: Pick<TempDirOptions, "root"> = {}): TempFiles {
    checkPrefix(prefix);
    const dir = mkdtempSync(path.join(opts.root ?? os.tmpdir(), `${TEMP_DIR_PREFIX}${prefix}-`));
    live.add(dir);
    installExitHook();
    return new TempFiles(dir);
  }

  /** Absolute path of `name` inside the directory (the file is not created). */
  path(name: string): string {
    if (!NAME_PATTERN.test(name) || name.includes(".."))
      throw new Error(`Not a plain file name: ${JSON.stringify(name)}`);
    return path.join(this.dir, name);
  }

  /** Deletes one file of this directory now (e.g. the original once converted). Missing is fine. */
  async remove(file: string): Promise<void> {
    const resolved = path.resolve(this.dir, file);
    if (path.dirname(resolved) !== this.dir) throw new Error("TempFiles.remove: not a file of this directory");
    await rm(resolved, { force: true });
  }

  /** Removes the directory and everything in it. Idempotent. */
  async cleanup(): Promise<void> {
    if (this.removed) return;
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
    this.removed = true;
    live.delete(this.dir);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.cleanup();
  }
}

/**
 * Runs `fn` with a fresh temporary directory and removes the directory afterwards, whatever happens.
 * An error from `fn` wins over an error from the removal.
 */
export async function withTempDir<T>(
  prefix: string,
  fn: (dir: string, files: TempFiles) => Promise<T>,
  opts: TempDirOptions = {},
): Promise<T> {
  opts.signal?.throwIfAborted();
  const files = await TempFiles.create(prefix, opts);
  let failed = false;
  try {
    // Aborted while the folder was being made: the work does not start, and the folder goes.
    opts.signal?.throwIfAborted();
    return await fn(files.dir, files);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    try {
      await files.cleanup();
    } catch (err) {
      if (!failed) throw err;
    }
  }
}

export interface StaleSweepOptions {
  /** Default: os.tmpdir(). */
  root?: string;
  /** Only directories made by withTempDir/TempFiles with this prefix. Default: any of ours. */
  prefix?: string;
  /** Only directories not modified for this long. Default 6 h (longer than any job). */
  olderThanMs?: number;
  now?: number;
}

/**
 * Removes temporary directories left behind by a crashed process (ours only: names start with
 * `verbatim-<prefix>-`), skipping the ones this process is still using. Returns the paths removed.
 * Call at worker start-up.
 */
export async function removeStaleTempDirs(opts: StaleSweepOptions = {}): Promise<string[]> {
  if (opts.prefix !== undefined) checkPrefix(opts.prefix);
  const root = opts.root ?? os.tmpdir();
  const start = opts.prefix === undefined ? TEMP_DIR_PREFIX : `${TEMP_DIR_PREFIX}${opts.prefix}-`;
  const cutoff = (opts.now ?? Date.now()) - (opts.olderThanMs ?? 6 * 60 * 60 * 1000);
  const removed: string[] = [];
  // The system's temporary folder (or a test's), never the project's: not for Turbopack to trace.
  for (const entry of await readdir(/*turbopackIgnore: true*/ root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(start)) continue;
    const dir = path.join(/*turbopackIgnore: true*/ root, entry.name);
    if (live.has(dir)) continue;
    try {
      if ((await stat(/*turbopackIgnore: true*/ dir)).mtimeMs > cutoff) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}
