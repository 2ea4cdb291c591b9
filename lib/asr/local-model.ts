/**
 * The local recogniser's model file: which one (a small pinned catalogue of whisper.cpp GGML files), where
 * it lives (DATA_DIR/models, or an operator-placed ASR_LOCAL_MODEL_PATH), and fetching it on first need
 * from the public host (lib/models/pinned-file.ts: through the outbound guard, resumed, checked, locked across
 * processes).
 */
import path from "node:path";

import type { Outbound } from "@/lib/http/outbound";
import { fetchPinnedFile, PinnedFileError, pinnedFilePresent } from "@/lib/models/pinned-file";

import { LOCAL_MODELS, type LocalModelInfo } from "./model-catalog";
import { AsrError } from "./types";

export { LOCAL_MODELS, type LocalModelInfo } from "./model-catalog";

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

/**
 * The model's path, downloading it first when it is not there yet. Errors are AsrErrors whose message
 * names ASR_LOCAL_MODEL_PATH and `npm run model:download`; a checksum mismatch leaves no partial file.
 */
export async function ensureModel(opts: EnsureModelOptions): Promise<string> {
  const info = opts.info ?? LOCAL_MODELS[opts.name];
  if (!info) modelFilePath(opts.dir, opts.name); // throws the clear error
  const target = path.join(/*turbopackIgnore: true*/ opts.dir, info!.file);
  if (await pinnedFilePresent(info!, target)) return target;
  const url = `${opts.baseUrl.replace(/\/+$/, "")}/${info!.file}`;
  try {
    return await fetchPinnedFile({ url, bytes: info!.bytes, sha256: info!.sha256 }, target, {
      outbound: opts.outbound,
      deadline: Date.now() + DOWNLOAD_TIMEOUT_MS,
      signal: opts.signal,
      onProgress: opts.onProgress,
    });
  } catch (error) {
    if (!(error instanceof PinnedFileError)) throw error;
    if (error.failure === "mismatch")
      throw new AsrError(
        "asr_unavailable",
        `The speech model downloaded from ${url} is not the expected file (${error.message}); it was deleted. ${MODEL_HINT}`,
        { retryable: false },
      );
    // A cut transfer is worth another attempt (it resumes); a host this server cannot reach at all, or that
    // has no such file, is not: the model is missing until the operator places it or opens the way.
    const missing = error.failure === "unreachable";
    throw new AsrError(
      missing ? "asr_model_missing" : "asr_unavailable",
      `The speech model ${info!.file} could not be downloaded from ${url}: ${error.message.replace(/\.+$/, "")}. ${MODEL_HINT}`,
      { retryable: !missing, cause: error },
    );
  }
}
