import { constants, createReadStream, createWriteStream } from "node:fs";
import { lstat, mkdir, open, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { renderTranscript } from "@/lib/formats";
import type { Transcript, WatchedFile } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/errors";
import { sniffMediaType, SNIFF_BYTES } from "@/lib/media/magic";
import { MediaError } from "@/lib/media/errors";
import { assertDuration, assertHasAudio, probeMedia } from "@/lib/media/probe";
import { log } from "@/lib/observability/logger";
import { transcriptDeps } from "@/lib/transcripts/deps";
import { asSeenBy, transcriptMeta, transcriptSegments } from "@/lib/transcripts/read";
import { requestTranscript } from "@/lib/transcripts/request-transcript";
import { transcriptRequestSchema } from "@/lib/transcripts/schemas";
import { allowedContentType, localPaths, newObjectPath } from "@/lib/uploads/objects";
import { hashFile, readHead, walkFolder, writeBeside, type FolderFile } from "./files";
import { noteName, resultName } from "./names";
import type { WatchSettings } from "./settings";
import { SettleTracker } from "./settle";

// The watch folder: each settled recording becomes the account's transcript once, by its content's SHA-256 (a
// WatchedFile row, unique per account and hash), whatever it is called and across restarts. It goes the way an
// upload goes: a copy in the upload store (lib/uploads), then POST /v1/transcript's own path (requestTranscript:
// the allowance reserved, the same job), its row turned from `claimed` to `queued` inside the transaction that
// charges (the `guard`), so a crash never makes two jobs of one file. Results are read back from the job each
// round and written beside the file; a file that cannot be transcribed gets a note instead. Nothing in the folder
// is ever deleted or replaced.

export interface TickReport {
  seen: number;
  submitted: number;
  noted: number;
  written: number;
  refused: string[];
}

/** How long a process holds a file it is submitting before another may take it over. */
const CLAIM_MS = 15 * 60_000;
/** Files read (hashed, probed, copied) at once. */
const AT_ONCE = 4;

interface Handled {
  size: number;
  mtimeMs: number;
  rowId: string;
}

export class WatchFolder {
  private readonly settle: SettleTracker;
  private readonly handled = new Map<string, Handled>();
  private readonly refusedLogged = new Set<string>();
  private root: string | null = null;
  private userId: string | null = null;
  private missingAccountLogged = false;

  constructor(
    readonly settings: WatchSettings,
    private readonly clock: () => number = Date.now,
  ) {
    this.settle = new SettleTracker(settings.settleMs);
  }

  /** One look at the folder: settled files read, finished jobs' results written. */
  async tick(): Promise<TickReport> {
    const report: TickReport = { seen: 0, submitted: 0, noted: 0, written: 0, refused: [] };
    const userId = await this.account();
    if (!userId) return report;
    const root = (this.root ??= await realpath(this.settings.dir));
    const walk = await walkFolder(root);
    report.refused = walk.refused;
    for (const rel of walk.refused) {
      if (this.refusedLogged.has(rel)) continue;
      this.refusedLogged.add(rel);
      log.warn({ path: rel }, "watch folder: a symlink that leads outside the folder is not read");
    }
    const present = new Set(walk.files.map((f) => f.rel));
    this.settle.keepOnly(present);
    for (const rel of this.handled.keys()) if (!present.has(rel)) this.handled.delete(rel);
    const now = this.clock();
    const ready = walk.files.filter((file) => {
      const done = this.handled.get(file.rel);
      if (done && done.size === file.size && done.mtimeMs === file.mtimeMs) return false;
      return this.settle.observe(file.rel, file, now);
    });
    report.seen = ready.length;
    await eachAtOnce(ready, AT_ONCE, async (file) => {
      try {
        await this.see(userId, file, report);
      } catch (error) {
        log.error({ err: error, path: file.rel }, "watch folder: a file could not be read");
        this.settle.reset(file.rel);
      }
    });
    await this.advance(userId, report);
    return report;
  }

  /** The account the files become: the person with WATCH_ACCOUNT's e-mail, or the team with its slug. */
  private async account(): Promise<string | null> {
    if (this.userId) return this.userId;
    const db = await getDb();
    const account = this.settings.account;
    const user = account.includes("@")
      ? await db.user.findFirst({
          where: { kind: "person", email: { equals: account, mode: "insensitive" } },
          select: { id: true },
        })
      : await db.user.findFirst({ where: { kind: "team", slug: account }, select: { id: true } });
    if (!user) {
      if (!this.missingAccountLogged)
        log.error(`watch folder: no person or team is WATCH_ACCOUNT (${account}) on this server; waiting`);
      this.missingAccountLogged = true;
      return null;
    }
    this.userId = user.id;
    return user.id;
  }

  /** A settled file: known (by path and look, else by content) or claimed and submitted. */
  private async see(userId: string, file: FolderFile, report: TickReport): Promise<void> {
    const db = await getDb();
    let row = await db.watchedFile.findFirst({
      where: { userId, path: file.rel, sizeBytes: BigInt(file.size), mtimeMs: file.mtimeMs },
    });
    if (!row) {
      const sha256 = await hashFile(file.abs);
      if (await changedSince(file)) return this.settle.reset(file.rel);
      row = await db.watchedFile.findUnique({ where: { userId_sha256: { userId, sha256 } } });
      if (!row) {
        const claimed = await this.claimNew(userId, sha256, file);
        if (claimed) {
          this.handled.set(file.rel, { size: file.size, mtimeMs: file.mtimeMs, rowId: claimed.id });
          await this.submit(userId, claimed, file, report);
          return;
        }
        row = await db.watchedFile.findUniqueOrThrow({ where: { userId_sha256: { userId, sha256 } } });
      }
    }
    // Known content: renamed, copied, or seen again after a restart. Its results (or its note) go beside this name.
    if (row.path !== file.rel || row.mtimeMs !== file.mtimeMs) {
      row = await db.watchedFile.update({
        where: { id: row.id },
        data: { path: file.rel, sizeBytes: BigInt(file.size), mtimeMs: file.mtimeMs },
      });
    }
    this.handled.set(file.rel, { size: file.size, mtimeMs: file.mtimeMs, rowId: row.id });
    if (row.state === "done" && row.transcriptId) {
      const transcript = await db.transcript.findUnique({ where: { id: row.transcriptId } });
      if (transcript) report.written += await this.writeResults(userId, transcript, [file.rel]);
    } else if (row.state === "noted" && row.note) {
      await this.writeNote(file.rel, row.note);
    }
  }

  /** The row for new content, claimed by this process; null when another process created it first. */
  private async claimNew(userId: string, sha256: string, file: FolderFile): Promise<WatchedFile | null> {
    const db = await getDb();
    const created = await db.watchedFile.createMany({
      data: [
        {
          userId,
          sha256,
          path: file.rel,
          sizeBytes: BigInt(file.size),
          mtimeMs: file.mtimeMs,
          state: "claimed",
          claimedUntil: new Date(Date.now() + CLAIM_MS),
        },
      ],
      skipDuplicates: true,
    });
    if (created.count !== 1) return null;
    return db.watchedFile.findUniqueOrThrow({ where: { userId_sha256: { userId, sha256 } } });
  }

  /** Checks the file, copies it into the upload store and starts its job as POST /v1/transcript would. */
  private async submit(userId: string, row: WatchedFile, file: FolderFile, report: TickReport): Promise<void> {
    const refusal = await refusalOf(file);
    if (refusal) {
      await this.note(row, file.rel, refusal);
      report.noted += 1;
      return;
    }
    const db = await getDb();
    const objectPath = newObjectPath(userId, path.basename(file.rel));
    const held = await db.watchedFile.updateMany({
      where: { id: row.id, state: "claimed" },
      data: { objectPath, claimedUntil: new Date(Date.now() + CLAIM_MS) },
    });
    if (held.count !== 1) return;
    const head = await readHead(file.abs, SNIFF_BYTES);
    if (!(await copyIntoUploads(file, objectPath))) {
      // It changed while it was copied: let go, and read it again once it has settled.
      await db.watchedFile.deleteMany({ where: { id: row.id, state: "claimed" } });
      this.handled.delete(file.rel);
      this.settle.reset(file.rel);
      return;
    }
    const now = new Date();
    await db.upload.create({
      data: {
        userId,
        objectPath,
        filename: path.basename(file.rel).slice(0, 255),
        contentType: allowedContentType(sniffMediaType(head) ?? "") ?? "application/octet-stream",
        sizeBytes: file.size,
        completedAt: now,
        expiresAt: new Date(now.getTime() + env().UPLOAD_RETENTION_HOURS * 3600_000),
      },
    });
    try {
      const outcome = await requestTranscript(
        userId,
        transcriptRequestSchema.parse({ upload: objectPath, lang: this.settings.lang, format: "json" }),
        transcriptDeps(),
        {
          skipJobRateLimit: true,
          guard: async (tx) => {
            const queued = await tx.watchedFile.updateMany({
              where: { id: row.id, state: "claimed", objectPath },
              data: { state: "queued", claimedUntil: null },
            });
            if (queued.count !== 1) throw new Error("the watched file's claim was taken over");
          },
        },
      );
      if (outcome.kind === "job") {
        await db.watchedFile.update({ where: { id: row.id }, data: { jobId: outcome.job.jobId } });
        report.submitted += 1;
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Refused as an upload would be (the allowance used up, no speech recognition on this server): a note.
      await this.note(row, file.rel, error.message);
      report.noted += 1;
    }
  }

  /** Queued files whose job has ended get their results (or a note); claims a stopped process left are taken over. */
  private async advance(userId: string, report: TickReport): Promise<void> {
    const db = await getDb();
    const queued = await db.watchedFile.findMany({ where: { userId, state: "queued" }, take: 500 });
    for (const row of queued) {
      // A stop between the charge and recording the job's id: the job is found by the upload it reads.
      const job = row.jobId
        ? await db.job.findUnique({ where: { id: row.jobId } })
        : await db.job.findFirst({
            where: { userId, input: { path: ["context", "objectPath"], equals: row.objectPath ?? "" } },
          });
      if (!job || (job.status !== "done" && job.status !== "error")) continue;
      if (job.status === "error" || !job.transcriptId) {
        await this.note(row, row.path, `Transcription failed: ${job.errorMessage ?? "the job failed."}`);
        report.noted += 1;
        continue;
      }
      const transcript = await db.transcript.findUnique({ where: { id: job.transcriptId } });
      if (!transcript) continue;
      const names = [...this.handled].filter(([, h]) => h.rowId === row.id).map(([rel]) => rel);
      report.written += await this.writeResults(userId, transcript, names.length ? names : [row.path]);
      await db.watchedFile.update({
        where: { id: row.id },
        data: { state: "done", jobId: job.id, transcriptId: transcript.id },
      });
    }
    const stale = await db.watchedFile.findMany({
      where: { userId, state: "claimed", claimedUntil: { lt: new Date() } },
      take: 50,
    });
    for (const row of stale) {
      const taken = await db.watchedFile.updateMany({
        where: { id: row.id, state: "claimed", claimedUntil: row.claimedUntil },
        data: { claimedUntil: new Date(Date.now() + CLAIM_MS) },
      });
      if (taken.count !== 1) continue;
      const abs = path.join(this.root!, row.path);
      const stats = await lstat(abs).catch(() => null);
      if (stats?.isFile())
        await this.submit(userId, row, { rel: row.path, abs, size: stats.size, mtimeMs: stats.mtimeMs }, report);
    }
  }

  /** Writes each format beside each name (only names not taken); returns how many files were written. */
  private async writeResults(userId: string, transcript: Transcript, rels: readonly string[]): Promise<number> {
    const view = await asSeenBy(userId, transcript);
    let written = 0;
    for (const rel of rels) {
      const dir = path.join(this.root!, path.dirname(rel));
      if (!(await lstat(path.join(this.root!, rel)).catch(() => null))) continue; // gone meanwhile
      for (const format of this.settings.formats) {
        const file = renderTranscript(format, transcriptSegments(view), transcriptMeta(view));
        if (await writeBeside(this.root!, dir, resultName(path.basename(rel), format), file.content)) written += 1;
      }
    }
    return written;
  }

  private async note(row: WatchedFile, rel: string, reason: string): Promise<void> {
    const db = await getDb();
    await db.watchedFile.update({
      where: { id: row.id },
      data: { state: "noted", note: reason.slice(0, 1000), claimedUntil: null },
    });
    await this.writeNote(rel, reason);
  }

  private async writeNote(rel: string, reason: string): Promise<void> {
    const name = path.basename(rel);
    const text = `Verbatim did not transcribe "${name}": ${reason}\nNothing else was done with the file.\n`;
    await writeBeside(this.root!, path.join(this.root!, path.dirname(rel)), noteName(name), text).catch(
      (error: unknown) => log.error({ err: error, path: rel }, "watch folder: a note could not be written"),
    );
  }
}

/** Why a file cannot be transcribed (not audio or video, too large, too long, unreadable), or null. */
export async function refusalOf(file: FolderFile): Promise<string | null> {
  let head: Buffer;
  try {
    head = await readHead(file.abs, SNIFF_BYTES);
  } catch (error) {
    return `it could not be read (${(error as NodeJS.ErrnoException).code ?? "error"}).`;
  }
  if (!sniffMediaType(head))
    return "it is not an audio or video file Verbatim can read (such as MP3, M4A, WAV, FLAC, Ogg, MP4, MOV, MKV or WebM).";
  const settings = env();
  const maxBytes = Math.min(settings.UPLOAD_MAX_BYTES, settings.MEDIA_MAX_BYTES);
  if (file.size > maxBytes) return `it is larger than this server accepts (${maxBytes} bytes).`;
  try {
    const probe = await probeMedia(file.abs);
    assertDuration(probe, settings.MEDIA_MAX_DURATION_SECONDS);
    assertHasAudio(probe);
  } catch (error) {
    if (error instanceof MediaError) return error.message;
    return "it could not be read as audio or video.";
  }
  return null;
}

/** The file copied to the upload store (its `.partial` first); false when it changed meanwhile. */
async function copyIntoUploads(file: FolderFile, objectPath: string): Promise<boolean> {
  const paths = localPaths(objectPath);
  await mkdir(paths.dir, { recursive: true });
  const source = await open(file.abs, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    await pipeline(
      createReadStream("", { fd: source }),
      createWriteStream(paths.partial, { flags: "wx", mode: 0o600 }),
    );
    if (await changedSince(file)) {
      await unlink(paths.partial).catch(() => undefined);
      return false;
    }
    await rename(paths.partial, paths.final);
    return true;
  } catch (error) {
    await unlink(paths.partial).catch(() => undefined);
    throw error;
  }
}

async function changedSince(file: FolderFile): Promise<boolean> {
  const now = await lstat(file.abs).catch(() => null);
  return !now?.isFile() || now.size !== file.size || now.mtimeMs !== file.mtimeMs;
}

async function eachAtOnce<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
