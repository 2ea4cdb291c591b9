// One process per data folder: PGlite keeps no lock of its own, and two processes serving one folder
// overwrite each other's writes. Every start takes DATA_DIR/verbatim.lock before it opens the folder
// (embedded-worker.ts) and removes it when it closes the database cleanly.
//
// Why a pid file and not proper-lockfile or an OS lock: Node.js has no flock/fcntl without a native module,
// and proper-lockfile's mkdir lock goes stale only after its mtime stops being refreshed (seconds), so a
// start right after a kill -9 would be refused, and a refresh held up by a busy event loop breaks a lock
// that is still in use. A pid file is stale the moment its process is gone: its holder is asked with
// `process.kill(pid, 0)` and, where /proc tells it, the process's start time, so a reused pid is not taken
// for the holder. The file is created whole and at once (a written temporary file hard-linked into place:
// link fails when the name exists), so a start killed at any moment leaves either no lock or a complete one.
// Breaking a stale lock is serialised by a second file of the same kind, so two starts that both found it
// stale cannot both remove it (the second would remove the first one's fresh lock).
import { readFileSync } from "node:fs";
import { chmod, link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export const DATA_DIR_LOCK_FILE = "verbatim.lock";

/** What the lock file says about the process that holds it. */
export interface LockHolder {
  pid: number;
  /** The port the app listens on, where the start knew it. */
  port?: number;
  hostname: string;
  /** The process's start time as /proc gives it (Linux); absent elsewhere. */
  processStart?: string;
  since: string;
}

/** Another process holds the data folder. Its message is the sentence a refused start prints. */
export class DataDirLocked extends Error {
  readonly locked = true;
  constructor(message: string) {
    super(message);
    this.name = "DataDirLocked";
  }
}

export function lockedSentence(dataDir: string, holder: LockHolder): string {
  const where = holder.hostname === os.hostname() ? "" : ` on ${holder.hostname}`;
  const port = holder.port ? `, port ${holder.port}` : "";
  return `The data folder ${dataDir} is in use by another Verbatim process (pid ${holder.pid}${where}${port}): one process per DATA_DIR. Stop that one, or give this one another DATA_DIR.`;
}

/** Whether an error is a refused start, also after it crossed a thread as a message (`locked: true`). */
export function isDataDirLocked(error: unknown): error is { message: string } {
  return typeof error === "object" && error !== null && (error as { locked?: unknown }).locked === true;
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function parseHolder(text: string | null): LockHolder | null {
  if (text === null) return null;
  try {
    const holder = JSON.parse(text) as LockHolder;
    return Number.isInteger(holder.pid) && holder.pid > 0 && typeof holder.hostname === "string" ? holder : null;
  } catch {
    return null;
  }
}

function isThisProcess(holder: LockHolder): boolean {
  return (
    holder.hostname === os.hostname() && holder.pid === process.pid && holder.processStart === processStart(process.pid)
  );
}

/**
 * Whether the holder may still be running. A holder on another machine (a shared folder) cannot be asked:
 * it counts as running, and the sentence names its machine.
 */
function isRunning(holder: LockHolder): boolean {
  if (holder.hostname !== os.hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return holder.processStart === undefined || holder.processStart === processStart(holder.pid);
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Creates `file` holding `text`, whole, or fails with EEXIST. On a file system without hard links, an exclusive
 * create and then the write: a lock read before its text is written then looks stale to another start.
 */
async function createWhole(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes((error as NodeJS.ErrnoException).code ?? ""))
      throw error;
    await writeFile(file, text, { flag: "wx", mode: 0o600 });
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

/**
 * Who holds the data folder now: the lock's holder while that process runs (this one included), else null.
 * For `npm run doctor`, which must not open a folder the app holds.
 */
export async function dataDirHolder(dataDir: string): Promise<LockHolder | null> {
  const holder = parseHolder(await readText(path.join(dataDir, DATA_DIR_LOCK_FILE)));
  return holder && isRunning(holder) ? holder : null;
}

export interface DataDirLock {
  /** Removes the lock, if it is still this process's. */
  release(): Promise<void>;
}

const ATTEMPTS = 200;

/**
 * Takes the data folder for this process, or throws DataDirLocked naming the process that has it. A lock
 * left by this process (a database thread that stopped and is started again) is taken again.
 */
export async function acquireDataDirLock(dataDir: string, opts: { port?: number } = {}): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, DATA_DIR_LOCK_FILE);
  const mine: LockHolder = {
    pid: process.pid,
    ...(opts.port ? { port: opts.port } : {}),
    hostname: os.hostname(),
    ...(processStart(process.pid) ? { processStart: processStart(process.pid) } : {}),
    since: new Date().toISOString(),
  };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      await createWhole(file, text);
      await chmod(file, 0o600);
      return {
        async release() {
          if ((await readText(file)) === text) await unlink(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const seen = await readText(file);
    const holder = parseHolder(seen);
    if (holder && !isThisProcess(holder) && isRunning(holder)) throw new DataDirLocked(lockedSentence(dataDir, holder));
    if (seen !== null) await removeStale(file, seen, text);
  }
  throw new Error(`could not take the lock ${file}: it kept changing hands`);
}

/** Removes the lock file if it still holds `seen`, while holding `file.break` (one breaker at a time). */
async function removeStale(file: string, seen: string, text: string): Promise<void> {
  const breaker = `${file}.break`;
  try {
    await createWhole(breaker, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const other = parseHolder(await readText(breaker));
    // Another start is breaking it now: it is done in a moment, and the caller looks again.
    if (other && !isThisProcess(other) && isRunning(other)) return void (await nextTurn());
    await unlink(breaker).catch(() => {});
    return;
  }
  try {
    if ((await readText(file)) === seen) await unlink(file).catch(() => {});
  } finally {
    await unlink(breaker).catch(() => {});
  }
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * What a process does when its database would not open because another process holds the folder: it prints
 * the sentence and exits (non-zero), instead of serving an error to every request. Other errors go on.
 */
export function exitIfDataDirLocked(error: unknown): never {
  if (!isDataDirLocked(error)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
