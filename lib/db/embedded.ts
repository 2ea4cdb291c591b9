// Opens the embedded database (PGlite under DATA_DIR/pglite) doing as little as a start can (issue 25):
// - a fresh data folder is restored from the snapshot `npm run build` prepares (scripts/db-snapshot.ts:
//   initdb and every migration already run) instead of running initdb in WebAssembly and then migrating;
// - a folder last migrated (or restored) with exactly the committed migrations, as its stamp file says,
//   skips the migration check; any other folder is migrated as before;
// - PostgreSQL gets 32 MB of shared buffers instead of its 128 MB default: setting those up was about
//   half of PGlite's boot, and the embedded database is a small one.
import "server-only";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
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

export function snapshotFile(snapshotDir: string, fingerprint: string): string {
  return path.join(snapshotDir, `pglite-${fingerprint.slice(0, 32)}.tar.gz`);
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
  await mkdir(dir, { recursive: true });
  const fresh = !existsSync(path.join(dir, "PG_VERSION"));
  const snapshot = fresh
    ? await readSnapshot(snapshotFile(opts.snapshotDir ?? defaultSnapshotDir(), fingerprint))
    : null;

  const pglite = await PGlite.create({
    dataDir: dir,
    startParams: [...EMBEDDED_START_PARAMS],
    ...(snapshot ? { loadDataDir: new Blob([new Uint8Array(snapshot)]) } : {}),
  });
  try {
    if (snapshot) {
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
  } catch (error) {
    await pglite.close().catch(() => {});
    throw error;
  }
}

/**
 * A fresh database with every migration applied, as the gzipped tarball PGlite restores (`loadDataDir`),
 * and the fingerprint of the migrations it holds. Built in memory; for scripts/db-snapshot.ts and tests.
 */
export async function buildSnapshot(dir?: string): Promise<{ fingerprint: string; tarball: Uint8Array }> {
  const fingerprint = migrationsFingerprint(await readMigrations(migrationsDir(dir)));
  const pglite = await PGlite.create();
  try {
    await applyMigrations(pgliteExecutor(pglite), { dir });
    await pglite.exec("CHECKPOINT");
    const dump = await pglite.dumpDataDir("gzip");
    return { fingerprint, tarball: new Uint8Array(await dump.arrayBuffer()) };
  } finally {
    await pglite.close();
  }
}

/** Writes the snapshot for the current migrations into `snapshotDir`, replacing older ones. */
export async function writeSnapshot(snapshotDir = defaultSnapshotDir(), dir?: string): Promise<string> {
  const { fingerprint, tarball } = await buildSnapshot(dir);
  await rm(snapshotDir, { recursive: true, force: true });
  await mkdir(snapshotDir, { recursive: true });
  const file = snapshotFile(snapshotDir, fingerprint);
  await writeFile(`${file}.tmp`, tarball);
  await rename(`${file}.tmp`, file);
  return file;
}

async function readSnapshot(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch {
    return null; // not built (e.g. `next dev`) or built for other migrations: initdb and migrate instead
  }
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
  await writeFile(`${file}.tmp`, `${fingerprint}\n`);
  await rename(`${file}.tmp`, file);
}
