/**
 * A model file pinned by its URL, size and SHA-256 (the speech model, the sentence model's files), fetched to its
 * place once: through the outbound guard within one total deadline, streamed to `<file>.part`, resumed with an HTTP
 * Range after a cut (a host that ignores the range sends it whole: the part starts again), checked against its size
 * and SHA-256 and renamed into place; a file that does not match is deleted. Several callers or processes asking at
 * once download it once: an O_EXCL lock file beside it, refreshed while held, taken over when stale.
 */
import { createHash, type Hash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as wait } from "node:timers/promises";

import { isOutboundError, type Outbound } from "@/lib/http/outbound";

export interface PinnedFile {
  url: string;
  bytes: number;
  sha256: string;
}

export interface FetchPinnedOptions {
  outbound: Outbound;
  /** When the whole fetch (waiting on another's lock included) must be done, in ms since the epoch. */
  deadline: number;
  signal?: AbortSignal;
  /** Fraction of the file on disk, 0…1, while downloading. */
  onProgress?(fraction: number): void;
}

/**
 * Why a fetch failed: `unreachable` (the host cannot be reached or has no such file: another attempt will not
 * help), `cut` (the transfer stopped midway: what arrived is kept, the next attempt resumes), `refused` (the host
 * answered with another status), `mismatch` (the bytes are not the pinned ones: deleted; the message compares
 * them), `deadline`.
 */
export type PinnedFileFailure = "unreachable" | "cut" | "refused" | "mismatch" | "deadline";

export class PinnedFileError extends Error {
  constructor(
    readonly failure: PinnedFileFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PinnedFileError";
  }
}

/** A lock file not refreshed for this long belongs to a process that died: taken over. */
const LOCK_STALE_MS = 30_000;
const LOCK_REFRESH_MS = 5_000;
const LOCK_POLL_MS = 250;
/** The wait for a response's head (the body has the whole deadline). */
const HEAD_TIMEOUT_MS = 60_000;
/** Outbound failures that say the host cannot be reached from here at all. */
const UNREACHABLE = [
  "upstream_dns_failed",
  "upstream_refused",
  "upstream_tls_failed",
  "url_not_allowed",
  "address_not_allowed",
];

export const sizeOf = (file: string): Promise<number | null> =>
  stat(file).then(
    (s) => (s.isFile() ? s.size : null),
    () => null,
  );

/** Whether `target` holds the pinned file (its size: a file is checked before it is renamed there). */
export const pinnedFilePresent = async (pinned: Pick<PinnedFile, "bytes">, target: string) =>
  (await sizeOf(target)) === pinned.bytes;

/** `target`, fetched first unless it is already there. Errors: PinnedFileError. */
export async function fetchPinnedFile(
  pinned: PinnedFile,
  target: string,
  options: FetchPinnedOptions,
): Promise<string> {
  if (await pinnedFilePresent(pinned, target)) return target;
  await mkdir(path.dirname(target), { recursive: true });
  for (;;) {
    const release = await lockOrWait(`${target}.lock`, options);
    if (release) {
      try {
        if (!(await pinnedFilePresent(pinned, target))) await download(pinned, target, options);
        return target;
      } finally {
        await release();
      }
    }
    // The holder finished (or gave up): its file, or our own turn.
    if (await pinnedFilePresent(pinned, target)) return target;
  }
}

function checkTime(options: FetchPinnedOptions): number {
  options.signal?.throwIfAborted();
  const left = options.deadline - Date.now();
  if (left <= 0) throw new PinnedFileError("deadline", "the download's deadline passed");
  return left;
}

/** Takes the lock (resolves with its release), or waits until its holder lets it go (resolves null). */
async function lockOrWait(lockFile: string, options: FetchPinnedOptions): Promise<(() => Promise<void>) | null> {
  try {
    const handle = await open(lockFile, "wx");
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
    const refresh = setInterval(() => {
      const now = new Date();
      utimes(lockFile, now, now).catch(() => undefined);
    }, LOCK_REFRESH_MS);
    refresh.unref();
    return async () => {
      clearInterval(refresh);
      await rm(lockFile, { force: true });
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (;;) {
    checkTime(options);
    const lock = await stat(lockFile).catch(() => null);
    if (!lock) return null;
    if (Date.now() - lock.mtimeMs > LOCK_STALE_MS) {
      await rm(lockFile, { force: true });
      return null;
    }
    await wait(LOCK_POLL_MS, undefined, { signal: options.signal }).catch((error: unknown) => {
      options.signal?.throwIfAborted();
      throw error;
    });
  }
}

/** Adds what is already in `file` to `hash` (a partial download being resumed). */
async function hashFile(file: string, hash: Hash): Promise<void> {
  await pipeline(
    createReadStream(file),
    new Transform({ transform: (chunk: Buffer, _e, done) => (hash.update(chunk), done()) }),
  );
}

/** The first byte a 206's Content-Range says it sends (null: none said). */
function rangeStart(header: string | null): number | null {
  const match = header ? /^bytes (\d+)-/.exec(header) : null;
  return match ? Number(match[1]) : null;
}

async function download(pinned: PinnedFile, target: string, options: FetchPinnedOptions): Promise<void> {
  const { url, bytes } = pinned;
  const part = `${target}.part`;
  let have = (await sizeOf(part)) ?? 0;
  if (have > bytes) {
    await rm(part, { force: true });
    have = 0;
  }
  const hash = createHash("sha256");
  if (have < bytes) {
    const left = checkTime(options);
    let response;
    try {
      response = await options.outbound.safeFetchStream(url, {
        headers: have > 0 ? { range: `bytes=${have}-` } : {},
        maxBytes: bytes,
        timeoutMs: Math.min(left, HEAD_TIMEOUT_MS),
        totalTimeoutMs: left,
        signal: options.signal,
      });
    } catch (error) {
      options.signal?.throwIfAborted();
      const message = isOutboundError(error) ? error.message : (error as Error).message;
      const permanent = isOutboundError(error) && UNREACHABLE.includes(error.code);
      throw new PinnedFileError(permanent ? "unreachable" : "cut", message, { cause: error });
    }
    const resumed = response.status === 206 && rangeStart(response.headers.get("content-range")) === have;
    if (response.status !== 200 && !resumed) {
      response.body.destroy();
      const missing = response.status === 404 || response.status === 410;
      throw new PinnedFileError(missing ? "unreachable" : "refused", `the host answered ${response.status}`);
    }
    if (resumed) await hashFile(part, hash);
    else have = 0;
    options.onProgress?.(have / bytes);
    let received = have;
    let reported = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        received += chunk.length;
        if (received - reported >= bytes / 100) {
          reported = received;
          options.onProgress?.(Math.min(1, received / bytes));
        }
        done(null, chunk);
      },
    });
    try {
      await pipeline(response.body, counter, createWriteStream(part, { flags: have > 0 ? "a" : "w" }), {
        signal: options.signal,
      });
    } catch (error) {
      options.signal?.throwIfAborted();
      // What arrived stays in the part file: the next attempt asks for the rest.
      throw new PinnedFileError(
        "cut",
        `the connection was cut after ${received} of ${bytes} bytes (the next attempt resumes)`,
        { cause: error },
      );
    }
  } else {
    await hashFile(part, hash);
  }
  const size = (await sizeOf(part)) ?? 0;
  const digest = hash.digest("hex");
  if (size !== bytes || digest !== pinned.sha256) {
    await rm(part, { force: true });
    throw new PinnedFileError(
      "mismatch",
      `${size} bytes, SHA-256 ${digest}; expected ${bytes} bytes, ${pinned.sha256}`,
    );
  }
  await rename(part, target);
  options.onProgress?.(1);
}
