/**
 * The local recogniser's model file: which one (a small pinned catalogue of whisper.cpp GGML files), where
 * it lives (DATA_DIR/models, or an operator-placed ASR_LOCAL_MODEL_PATH), and fetching it on first need
 * from the public host through the outbound guard: streamed to `<file>.part`, resumed with an HTTP Range
 * after a cut, checked against the pinned SHA-256 before it is renamed into place, and downloaded once
 * even when several jobs or processes ask at the same moment (an O_EXCL lock file, refreshed while held,
 * taken over when stale).
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";

import { isOutboundError, type Outbound } from "@/lib/http/outbound";

import { LOCAL_MODELS, type LocalModelInfo } from "./model-catalog";
import { AsrError, sleep, throwIfAborted } from "./types";

export { LOCAL_MODELS, type LocalModelInfo } from "./model-catalog";

/** A lock file not refreshed for this long belongs to a process that died: taken over. */
const LOCK_STALE_MS = 30_000;
const LOCK_REFRESH_MS = 5_000;
const LOCK_POLL_MS = 250;
/** The whole download, all bytes (60 MB on a slow line). */
const DOWNLOAD_TIMEOUT_MS = 60 * 60_000;

export const MODEL_HINT =
  "Put the model file on this machine and set ASR_LOCAL_MODEL_PATH to it, or run `npm run model:download` where the model host is reachable (ASR_LOCAL_MODEL_BASE_URL sets a mirror).";

/** The same advice for `npm run model:download` itself, which must not tell its user to run it again. */
export const MODEL_HINT_FOR_DOWNLOAD =
  "Download the model file on a machine that can reach the host (or from a mirror: ASR_LOCAL_MODEL_BASE_URL), copy it here and set ASR_LOCAL_MODEL_PATH to it; or give this machine a way out (OUTBOUND_PROXY).";

export interface EnsureModelOptions {
  /** Catalogue name (LOCAL_MODELS). */
  name: string;
  /** Folder the model is kept in (DATA_DIR/models). */
  dir: string;
  /** Where `<file>` is fetched from: `${baseUrl}/${file}`. */
  baseUrl: string;
  outbound: Outbound;
  signal?: AbortSignal;
  /** Fraction of the file on disk, 0…1, while downloading. */
  onProgress?(fraction: number): void;
  /** Overrides the catalogue entry (tests). */
  info?: LocalModelInfo;
}

/** Where the named model is (or will be) stored. */
export function modelFilePath(dir: string, name: string): string {
  const info = LOCAL_MODELS[name];
  if (!info)
    throw new AsrError(
      "asr_unavailable",
      `Unknown ASR_LOCAL_MODEL "${name}": one of ${Object.keys(LOCAL_MODELS).join(", ")}, or set ASR_LOCAL_MODEL_PATH.`,
      { retryable: false },
    );
  // The models' folder is DATA_DIR/models (or a test's), never the project's: the turbopackIgnore comments here
  // keep Turbopack from tracing the whole project into the server output.
  return path.join(/*turbopackIgnore: true*/ dir, info.file);
}

async function sizeOf(file: string): Promise<number | null> {
  return (await stat(file).catch(() => null))?.size ?? null;
}

/** Takes the lock (resolves with its release) or waits until the holder is done (resolves null). */
async function lockOrWait(
  lockFile: string,
  target: string,
  signal: AbortSignal | undefined,
): Promise<(() => Promise<void>) | null> {
  for (;;) {
    throwIfAborted(signal);
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
    // Someone else is downloading: wait for the file, or for their lock to go stale.
    let waited = false;
    for (;;) {
      const lock = await stat(lockFile).catch(() => null);
      if (!lock) break;
      if (Date.now() - lock.mtimeMs > LOCK_STALE_MS) {
        await rm(lockFile, { force: true });
        break;
      }
      waited = true;
      await sleep(LOCK_POLL_MS, signal);
    }
    if (waited && (await sizeOf(target)) !== null) return null;
  }
}

/** SHA-256 of what is already in `file` (a partial download being resumed). */
async function hashFile(file: string, hash: ReturnType<typeof createHash>): Promise<void> {
  await pipeline(
    createReadStream(file),
    new Transform({ transform: (chunk: Buffer, _e, done) => (hash.update(chunk), done()) }),
  );
}

/**
 * The model's path, downloading it first when it is not there yet. Errors are AsrErrors whose message
 * names ASR_LOCAL_MODEL_PATH and `npm run model:download`; a checksum mismatch leaves no partial file.
 */
export async function ensureModel(opts: EnsureModelOptions): Promise<string> {
  const info = opts.info ?? LOCAL_MODELS[opts.name];
  if (!info) modelFilePath(opts.dir, opts.name); // throws the clear error
  const target = path.join(/*turbopackIgnore: true*/ opts.dir, info!.file);
  if ((await sizeOf(target)) === info!.bytes) return target;
  await mkdir(opts.dir, { recursive: true });
  const release = await lockOrWait(`${target}.lock`, target, opts.signal);
  if (!release) {
    if ((await sizeOf(target)) === info!.bytes) return target;
    throw new AsrError(
      "asr_unavailable",
      `The speech model ${info!.file} is still missing after another process downloaded it. ${MODEL_HINT}`,
      { retryable: true },
    );
  }
  try {
    if ((await sizeOf(target)) === info!.bytes) return target;
    await download(info!, target, opts);
    return target;
  } finally {
    await release();
  }
}

async function download(info: LocalModelInfo, target: string, opts: EnsureModelOptions): Promise<void> {
  const part = `${target}.part`;
  const url = `${opts.baseUrl.replace(/\/+$/, "")}/${info.file}`;
  let have = (await sizeOf(part)) ?? 0;
  if (have > info.bytes) {
    await rm(part, { force: true });
    have = 0;
  }
  const hash = createHash("sha256");
  // A cut transfer is worth another attempt (it resumes); a host this server cannot reach at all, or that
  // has no such file, is not: the model is missing until the operator places it or opens the way.
  const unreachable = (detail: string, cause?: unknown, missing = false) =>
    new AsrError(
      missing ? "asr_model_missing" : "asr_unavailable",
      `The speech model ${info.file} could not be downloaded from ${url}: ${detail.replace(/\.+$/, "")}. ${MODEL_HINT}`,
      { retryable: !missing, cause },
    );

  if (have < info.bytes) {
    let response;
    try {
      response = await opts.outbound.safeFetchStream(url, {
        headers: have > 0 ? { range: `bytes=${have}-` } : {},
        maxBytes: info.bytes,
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
        signal: opts.signal,
      });
    } catch (error) {
      throwIfAborted(opts.signal);
      const permanent =
        isOutboundError(error) &&
        [
          "upstream_dns_failed",
          "upstream_refused",
          "upstream_tls_failed",
          "url_not_allowed",
          "address_not_allowed",
        ].includes(error.code);
      throw unreachable(isOutboundError(error) ? error.message : (error as Error).message, error, permanent);
    }
    if (response.status !== 200 && response.status !== 206) {
      response.body.destroy();
      throw unreachable(`the host answered ${response.status}`, undefined, response.status === 404);
    }
    if (response.status === 200)
      have = 0; // the host ignored the range: start again
    else await hashFile(part, hash);
    opts.onProgress?.(have / info.bytes);
    let received = have;
    let lastReport = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        received += chunk.length;
        if (received - lastReport >= info.bytes / 100) {
          lastReport = received;
          opts.onProgress?.(Math.min(1, received / info.bytes));
        }
        done(null, chunk);
      },
    });
    try {
      await pipeline(response.body, counter, createWriteStream(part, { flags: have > 0 ? "a" : "w" }), {
        signal: opts.signal,
      });
    } catch (error) {
      throwIfAborted(opts.signal);
      // What arrived stays in the .part file: the next attempt asks for the rest.
      throw unreachable(
        `the connection was cut after ${received} of ${info.bytes} bytes (the next attempt resumes)`,
        error,
      );
    }
  } else {
    await hashFile(part, hash);
  }
  const size = (await sizeOf(part)) ?? 0;
  const digest = hash.digest("hex");
  if (size !== info.bytes || digest !== info.sha256) {
    await rm(part, { force: true });
    throw new AsrError(
      "asr_unavailable",
      `The speech model downloaded from ${url} is not the expected file (${size} bytes, SHA-256 ${digest}; expected ${info.bytes} bytes, ${info.sha256}); it was deleted. ${MODEL_HINT}`,
      { retryable: false },
    );
  }
  await rename(part, target);
  opts.onProgress?.(1);
}
