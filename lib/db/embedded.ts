// Opens the embedded database (PGlite under DATA_DIR/pglite) doing as little as a start can:
// - a fresh data folder is copied from the database folder `npm run build` prepares (scripts/db-snapshot.ts:
//   initdb and every migration already run, shut down cleanly) instead of running initdb in WebAssembly and
//   then migrating; a plain copy of its files is quicker than restoring them from a tarball through
//   PGlite's own file system layer (its `loadDataDir`; figures in README.md);
// - a folder last migrated (or restored) with exactly the committed migrations, as its stamp file says,
//   skips the migration check; any other folder is migrated as before;
// - PostgreSQL gets 32 MB of shared buffers instead of its 128 MB default: setting those up was a large
//   share of PGlite's boot, and the embedded database is a small one.
import "server-only";
import { chmodSync, constants, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { chmod, mkdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_EXTENSIONS } from "@/lib/db/pglite-extensions";
import {
  applyMigrations,
  migrationsDir,
  migrationsFingerprint,
  pgliteExecutor,
  readMigrations,
} from "@/lib/db/migrate";

export const EMBEDDED_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

/** In the database folder: the fingerprint of the migrations it was last migrated with. */
const MIGRATED_STAMP = "verbatim-migrations.sha256";

/** Where `npm run build` leaves the snapshots (one per migrations fingerprint). */
export function defaultSnapshotDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), ".next", "verbatim-pglite");
}

/** The snapshot for one migrations fingerprint: a PGlite database folder. */
export function snapshotFolder(snapshotDir: string, fingerprint: string): string {
  return path.join(snapshotDir, `pglite-${fingerprint.slice(0, 32)}`);
}

export interface OpenEmbeddedOptions {
  /** Default: prisma/migrations. */
  migrationsDir?: string;
  /** Default: defaultSnapshotDir(). */
  snapshotDir?: string;
  log?: (fields: Record<string, unknown>, message: string) => void;
}

export interface OpenedEmbedded {
  pglite: PGlite;
  /** How the folder was brought up to date. */
  start: "restored from snapshot" | "created and migrated" | "already migrated" | "migrated";
  applied: string[];
}

/** Opens (creating or restoring it when needed) and migrates the PGlite database in `dir`. */
export async function openEmbeddedDatabase(dir: string, opts: OpenEmbeddedOptions = {}): Promise<OpenedEmbedded> {
  const log = opts.log ?? (() => {});
  const migrations = await readMigrations(migrationsDir(opts.migrationsDir));
  const fingerprint = migrationsFingerprint(migrations);
  const restored = await restoreSnapshot(dir, snapshotFolder(opts.snapshotDir ?? defaultSnapshotDir(), fingerprint));
  const fresh = !existsSync(path.join(dir, "PG_VERSION"));
  if (fresh) await createDatabase(dir);

  const pglite = await PGlite.create({
    dataDir: dir,
    startParams: [...EMBEDDED_START_PARAMS],
    extensions: PGLITE_EXTENSIONS,
  });
  const bringUpToDate = async (): Promise<OpenedEmbedded> => {
    if (restored) {
      await writeStamp(dir, fingerprint);
      return { pglite, start: "restored from snapshot", applied: [] };
    }
    if (!fresh && (await readStamp(dir)) === fingerprint) return { pglite, start: "already migrated", applied: [] };
    const { applied } = await applyMigrations(pgliteExecutor(pglite), {
      dir: opts.migrationsDir,
      log: (line) => log({}, line),
    });
    await writeStamp(dir, fingerprint);
    return { pglite, start: fresh ? "created and migrated" : "migrated", applied };
  };
  try {
    const opened = await bringUpToDate();
    // Once open and migrated, so the files PGlite made meanwhile are private too; the ones it makes later are
    // in a folder only this user can enter.
    makePrivate(dir);
    return opened;
  } catch (error) {
    await pglite.close().catch(() => {});
    throw error;
  }
}

/**
 * Runs initdb in a sibling folder and renames it into place once PGlite has shut it down cleanly: a start
 * killed during initdb leaves no half-made database (which PostgreSQL would refuse to open for good: "no
 * valid checkpoint record"), only a staging folder the next start removes. The migrations then run in `dir`,
 * each in a transaction of its own.
 */
async function createDatabase(dir: string): Promise<void> {
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new Error(`${dir} holds files but no database (no PG_VERSION): move it away and start again`);
  const staging = `${dir}.creating`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  const pglite = await PGlite.create({
    dataDir: staging,
    startParams: [...EMBEDDED_START_PARAMS],
    extensions: PGLITE_EXTENSIONS,
  });
  await pglite.close();
  if (existsSync(dir)) await rmdir(dir);
  await rename(staging, dir);
}

/**
 * Gives a database folder to this user alone: folders 0700, files 0600, whatever made them (PGlite creates
 * its files 0666 less the umask; a copy keeps the snapshot's modes; a folder may come from a backup or
 * another tool). Only what differs is changed.
 */
export function makePrivate(dir: string): void {
  const walk = (folder: string) => {
    if ((lstatSync(folder).mode & 0o777) !== 0o700) chmodSync(folder, 0o700);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const entryPath = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(entryPath);
      else if (entry.isFile() && (lstatSync(entryPath).mode & 0o777) !== 0o600) chmodSync(entryPath, 0o600);
    }
  };
  walk(dir);
}

/**
 * Copies the snapshot into `dir` when `dir` holds no database yet (missing or empty) and the snapshot for
 * these migrations exists; false otherwise (not built, e.g. `next dev`, or built for other migrations: initdb
 * and migrate instead). The copy goes to a sibling folder first and is renamed into place, so a start
 * stopped half-way leaves no half-copied database behind. A synchronous copy: Node 20's asynchronous
 * `fs.cp` is written in JavaScript and took three times as long, and nothing else can be served before
 * the database is open anyway.
 */
async function restoreSnapshot(dir: string, snapshot: string): Promise<boolean> {
  if (!existsSync(path.join(snapshot, "PG_VERSION"))) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false;
  const staging = `${dir}.restoring`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  copyFolder(snapshot, staging);
  if (existsSync(dir)) await rmdir(dir);
  await rename(staging, dir);
  return true;
}

/**
 * Copies a database folder: directories and regular files, each file a copy-on-write clone where the file
 * system has them (Btrfs, XFS, APFS) and a plain copy elsewhere. Not `fs.cpSync`: on Node 20 it is written in
 * JavaScript and makes several more system calls per file, which the snapshot's ~1,100 files multiply. A
 * database folder holds nothing but
 * directories and files; anything else is refused rather than copied wrongly.
 */
function copyFolder(from: string, to: string): void {
  mkdirSync(to, { mode: 0o700 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyFolder(source, target);
    else if (entry.isFile()) copyFileSync(source, target, constants.COPYFILE_FICLONE);
    else throw new Error(`the database snapshot holds something other than a file or folder: ${source}`);
  }
}

/**
 * Writes the snapshot for the current migrations into `snapshotDir`, replacing older ones: a database folder
 * with initdb and every migration run, shut down cleanly (so that a start from a copy replays nothing).
 */
export async function writeSnapshot(snapshotDir = defaultSnapshotDir(), dir?: string): Promise<string> {
  const fingerprint = migrationsFingerprint(await readMigrations(migrationsDir(dir)));
  const folder = snapshotFolder(snapshotDir, fingerprint);
  const staging = `${folder}.building`;
  await rm(snapshotDir, { recursive: true, force: true });
  await mkdir(snapshotDir, { recursive: true, mode: 0o700 });
  await chmod(snapshotDir, 0o700);
  const pglite = await PGlite.create({
    dataDir: staging,
    startParams: [...EMBEDDED_START_PARAMS],
    extensions: PGLITE_EXTENSIONS,
  });
  try {
    await applyMigrations(pgliteExecutor(pglite), { dir });
    await pglite.exec("CHECKPOINT");
  } finally {
    await pglite.close();
  }
  await writeStamp(staging, fingerprint);
  makePrivate(staging);
  await rename(staging, folder);
  return folder;
}

async function readStamp(dir: string): Promise<string | null> {
  try {
    return (await readFile(path.join(dir, MIGRATED_STAMP), "utf8")).trim();
  } catch {
    return null;
  }
}

async function writeStamp(dir: string, fingerprint: string): Promise<void> {
  const file = path.join(dir, MIGRATED_STAMP);
  await writeFile(`${file}.tmp`, `${fingerprint}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}
