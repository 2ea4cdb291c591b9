import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AUDIT_ACTIONS, recordAudit, type AuditEntry } from "@/lib/membership/audit";
import { log } from "@/lib/observability/logger";

// The trail's outbox. A change made outside the team feature's own transactions (a webhook created, a page
// published) is recorded once it has succeeded; if that line cannot be written then (the database refused it for a
// moment), the caller is still told the change succeeded, and the line is kept here, one file per line under
// DATA_DIR/audit-outbox, with the id and time it was given. `writeKeptAuditLines` writes them under that id (a line
// written twice is one row), at start, with the hourly cleanup and a minute after a line is kept.

const RETRY_AFTER_MS = 60_000;

interface KeptLine {
  id: string;
  at: string;
  entry: AuditEntry;
}

function outboxDir(): string {
  return path.resolve(env().DATA_DIR, "audit-outbox");
}

let retry: NodeJS.Timeout | null = null;

/** Keeps `entry` (its change made at `at`) to be written later; its file is whole or absent (written, then renamed). */
export async function keepAuditLine(entry: AuditEntry, at: Date): Promise<string> {
  const id = randomUUID();
  const dir = outboxDir();
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${id}.json`);
  const line: KeptLine = { id, at: at.toISOString(), entry };
  await writeFile(`${file}.part`, JSON.stringify(line), { mode: 0o600 });
  await rename(`${file}.part`, file);
  retry ??= setTimeout(() => {
    retry = null;
    void writeKeptAuditLines().catch((err: unknown) => log.error({ err }, "kept audit lines not written"));
  }, RETRY_AFTER_MS);
  retry.unref();
  return id;
}

function readKept(text: string): KeptLine | null {
  try {
    const line = JSON.parse(text) as Partial<KeptLine>;
    const entry = line.entry as Partial<AuditEntry> | undefined;
    if (
      typeof line.id !== "string" ||
      typeof line.at !== "string" ||
      Number.isNaN(Date.parse(line.at)) ||
      typeof entry?.teamId !== "string" ||
      typeof entry.actorLabel !== "string" ||
      !(AUDIT_ACTIONS as readonly string[]).includes(entry.action ?? "")
    )
      return null;
    return line as KeptLine;
  } catch {
    return null;
  }
}

/**
 * Writes every kept line into its team's trail under its own id and time, then removes its file. A line whose team
 * is gone is dropped with it (the team's trail went too). A file that cannot be read stays for the operator, logged.
 */
export async function writeKeptAuditLines(): Promise<{ written: number; unreadable: number }> {
  const dir = outboxDir();
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(".json"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { written: 0, unreadable: 0 };
    throw err;
  }
  const db = await getDb();
  let written = 0;
  let unreadable = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const line = readKept(await readFile(file, "utf8").catch(() => ""));
    if (!line) {
      unreadable++;
      log.error({ file }, "an audit line kept for later cannot be read; left in place");
      continue;
    }
    await db.$transaction((tx) => recordAudit(tx, line.entry, { id: line.id, at: new Date(line.at) }));
    await rm(file, { force: true });
    written++;
  }
  return { written, unreadable };
}
