// The local sentence model's files (lib/embeddings/sentence-catalog.ts), fetched on first need from the model host
// (Hugging Face's `<base>/<repo>/resolve/<revision>/<path>`, or a mirror with the same layout) through the outbound
// guard, within one deadline for all of them: each streamed to a part file of this process's own, checked against
// its pinned size and SHA-256, and renamed into place; a file that does not match is deleted. Two processes that
// download at once each write their own part and rename the same bytes into place.
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { EmbedderUnavailable } from "@/lib/embeddings/default-model";
import type { SentenceModelFile, SentenceModelInfo } from "@/lib/embeddings/sentence-catalog";
import type { SentenceModelFiles } from "@/lib/embeddings/sentence-model";
import { isOutboundError, type Outbound } from "@/lib/http/outbound";

/** All of a model's files (90 MB for all-MiniLM-L6-v2, on a slow line). */
export const LOCAL_MODEL_DEADLINE_MS = 30 * 60_000;

export interface LocalModelPlace {
  name: string;
  info: SentenceModelInfo;
  /** DATA_DIR/models/<name>. */
  dir: string;
  /** The host: `https://huggingface.co` or a mirror. */
  baseUrl: string;
}

export const localModelHint = (place: LocalModelPlace) =>
  `Put ${place.info.model.file} and ${place.info.tokenizer.file} of ${place.info.repo} under ${place.dir}, or set SEARCH_LOCAL_MODEL_BASE_URL to a mirror (or OUTBOUND_PROXY) and run \`npm run model:download -- search\`, or SEARCH_EMBEDDER=default.`;

export function localModelFiles(place: LocalModelPlace): SentenceModelFiles {
  return {
    modelFile: path.join(/*turbopackIgnore: true*/ place.dir, place.info.model.file),
    tokenizerFile: path.join(/*turbopackIgnore: true*/ place.dir, place.info.tokenizer.file),
    maxTokens: place.info.maxTokens,
  };
}

const sizeOf = (file: string) =>
  stat(file).then(
    (s) => (s.isFile() ? s.size : null),
    () => null,
  );

/** Whether both files are in place (their pinned sizes: each was checked when it was renamed there). */
export async function localModelPresent(place: LocalModelPlace): Promise<boolean> {
  const files = localModelFiles(place);
  return (
    (await sizeOf(files.modelFile)) === place.info.model.bytes &&
    (await sizeOf(files.tokenizerFile)) === place.info.tokenizer.bytes
  );
}

const pending = new Map<string, Promise<SentenceModelFiles>>();

/** The model's files, downloaded first where missing (once at a time in this process). Errors: EmbedderUnavailable. */
export function ensureLocalModel(
  place: LocalModelPlace,
  outbound: Outbound,
  options: { deadlineMs?: number; signal?: AbortSignal } = {},
): Promise<SentenceModelFiles> {
  let download = pending.get(place.dir);
  if (!download) {
    download = (async () => {
      const files = localModelFiles(place);
      const deadline = Date.now() + (options.deadlineMs ?? LOCAL_MODEL_DEADLINE_MS);
      await fetchPinned(place, place.info.tokenizer, files.tokenizerFile, outbound, deadline, options.signal);
      await fetchPinned(place, place.info.model, files.modelFile, outbound, deadline, options.signal);
      return files;
    })().finally(() => pending.delete(place.dir));
    pending.set(place.dir, download);
  }
  return download;
}

async function fetchPinned(
  place: LocalModelPlace,
  pinned: SentenceModelFile,
  target: string,
  outbound: Outbound,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if ((await sizeOf(target)) === pinned.bytes) return;
  await mkdir(path.dirname(target), { recursive: true });
  const url = `${place.baseUrl.replace(/\/+$/, "")}/${place.info.repo}/resolve/${place.info.revision}/${pinned.path}`;
  const failed = (detail: string, cause?: unknown) =>
    new EmbedderUnavailable(
      `The sentence model's ${pinned.file} could not be downloaded from ${url}: ${detail.replace(/\.+$/, "")}. ${localModelHint(place)}`,
      { cause },
    );
  const left = deadline - Date.now();
  if (left <= 0) throw failed("the download's deadline passed");
  const part = `${target}.${process.pid}.${randomUUID().slice(0, 8)}.part`;
  const hash = createHash("sha256");
  let received = 0;
  try {
    const response = await outbound.safeFetchStream(url, {
      maxBytes: pinned.bytes,
      timeoutMs: Math.min(left, 60_000),
      totalTimeoutMs: left,
      signal,
    });
    if (response.status !== 200) {
      response.body.destroy();
      throw failed(`the host answered ${response.status}`);
    }
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        received += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(response.body, counter, createWriteStream(part), { signal });
  } catch (error) {
    await rm(part, { force: true });
    if (error instanceof EmbedderUnavailable) throw error;
    throw failed(isOutboundError(error) ? error.message : (error as Error).message, error);
  }
  const digest = hash.digest("hex");
  if (received !== pinned.bytes || digest !== pinned.sha256) {
    await rm(part, { force: true });
    throw new EmbedderUnavailable(
      `The sentence model's ${pinned.file} downloaded from ${url} is not the expected file (${received} bytes, SHA-256 ${digest}; expected ${pinned.bytes} bytes, ${pinned.sha256}); it was deleted. ${localModelHint(place)}`,
    );
  }
  await rename(part, target);
}
