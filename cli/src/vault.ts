import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Unzip, UnzipInflate } from "fflate";
import { CliError, EXIT } from "./errors";

// Notes from an export's zip into a folder (a notes app's vault): each written whole under a temporary name and
// renamed over the old one, so the app never reads half a note; a note whose bytes are the same is left alone
// (its modification time too, so a sync tool sees nothing to do). A note's name ends in a digest of its
// transcript's id, `(k3x7q2m7ta).md`: a transcript whose title changed is renamed in place, not written twice.

export interface VaultOutcome {
  added: string[];
  updated: string[];
  renamed: { from: string; to: string }[];
  unchanged: string[];
}

const DIGEST = /(?:^|\()([a-z2-7]{10})\)?\.md$/;

/** The digest a note's name ends with, or null for a file that is not one of Verbatim's notes. */
export function digestOf(name: string): string | null {
  return DIGEST.exec(name)?.[1] ?? null;
}

/** A name from the archive as one file of `folder`: a plain `.md` name, never a path that leaves it. */
function safeName(name: string): string {
  const ok =
    name.endsWith(".md") &&
    !/[/\\\u0000]/.test(name) &&
    path.basename(name) === name &&
    !name.startsWith(".") &&
    Buffer.byteLength(name) <= 255;
  if (!ok)
    throw new CliError(`The export holds a file name this folder cannot take: ${JSON.stringify(name)}.`, EXIT.other);
  return name;
}

/** Writes the notes of `zip` (an export's body, read as it arrives) into `folder`, created when missing. */
export async function writeNotes(zip: ReadableStream<Uint8Array>, folder: string): Promise<VaultOutcome> {
  await mkdir(folder, { recursive: true });
  const byDigest = new Map<string, string>();
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const digest = entry.isFile() ? digestOf(entry.name) : null;
    if (digest) byDigest.set(digest, entry.name);
  }
  const outcome: VaultOutcome = { added: [], updated: [], renamed: [], unchanged: [] };
  const done: { name: string; bytes: Uint8Array }[] = [];
  let failure: Error | null = null;
  const unzip = new Unzip((file) => {
    const parts: Uint8Array[] = [];
    file.ondata = (error, chunk, final) => {
      if (error) failure = error;
      else parts.push(chunk);
      if (final) done.push({ name: file.name, bytes: Buffer.concat(parts) });
    };
    file.start();
  });
  unzip.register(UnzipInflate);

  const flush = async () => {
    if (failure) throw new CliError(`The export could not be read: ${failure.message}.`, EXIT.other);
    while (done.length > 0) await place(folder, done.shift()!, byDigest, outcome);
  };
  const reader = zip.getReader();
  for (;;) {
    const { value, done: ended } = await reader.read();
    unzip.push(value ?? new Uint8Array(0), ended);
    await flush();
    if (ended) break;
  }
  return outcome;
}

async function place(
  folder: string,
  note: { name: string; bytes: Uint8Array },
  byDigest: Map<string, string>,
  outcome: VaultOutcome,
): Promise<void> {
  const name = safeName(note.name);
  const target = path.join(folder, name);
  const digest = digestOf(name);
  const before = digest ? byDigest.get(digest) : undefined;
  if (digest && before !== undefined && before !== name) {
    await rename(path.join(folder, before), target);
    outcome.renamed.push({ from: before, to: name });
  }
  if (digest) byDigest.set(digest, name);
  const old = await readFile(target).catch(() => null);
  if (old && Buffer.compare(old, note.bytes) === 0) {
    if (before === name) outcome.unchanged.push(name);
    return;
  }
  const temporary = path.join(folder, `.${name}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, note.bytes);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  (old ? outcome.updated : outcome.added).push(name);
}
