// The local sentence model's files (./sentence-catalog.ts), fetched on first need from the model host (Hugging
// Face's `<base>/<repo>/resolve/<revision>/<path>`, or a mirror with the same layout) by the one fetcher of pinned
// files (lib/models/pinned-file.ts: through the outbound guard, resumed, checked, locked across processes), within
// one deadline for all of them, into DATA_DIR/models/<name>/.
import path from "node:path";
import type { Outbound } from "@/lib/http/outbound";
import { fetchPinnedFile, PinnedFileError, pinnedFilePresent, type PinnedFile } from "@/lib/models/pinned-file";
import { EmbedderUnavailable } from "./default-model";
import type { SentenceModelFile, SentenceModelInfo } from "./sentence-catalog";
import type { SentenceModelFiles } from "./sentence-model";

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

/** A file of the model as the fetcher of pinned files takes it: its URL at the pinned revision. */
export const pinnedSentenceFile = (place: LocalModelPlace, file: SentenceModelFile): PinnedFile => ({
  url: `${place.baseUrl.replace(/\/+$/, "")}/${place.info.repo}/resolve/${place.info.revision}/${file.path}`,
  bytes: file.bytes,
  sha256: file.sha256,
});

/** Whether both files are in place (their pinned sizes: each was checked when it was renamed there). */
export async function localModelPresent(place: LocalModelPlace): Promise<boolean> {
  const files = localModelFiles(place);
  return (
    (await pinnedFilePresent(place.info.model, files.modelFile)) &&
    (await pinnedFilePresent(place.info.tokenizer, files.tokenizerFile))
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
      const fetchOne = async (file: SentenceModelFile, target: string) => {
        const pinned = pinnedSentenceFile(place, file);
        try {
          await fetchPinnedFile(pinned, target, { outbound, deadline, signal: options.signal });
        } catch (error) {
          if (!(error instanceof PinnedFileError)) throw error;
          throw new EmbedderUnavailable(
            error.failure === "mismatch"
              ? `The sentence model's ${file.file} downloaded from ${pinned.url} is not the expected file (${error.message}); it was deleted. ${localModelHint(place)}`
              : `The sentence model's ${file.file} could not be downloaded from ${pinned.url}: ${error.message.replace(/\.+$/, "")}. ${localModelHint(place)}`,
            { cause: error },
          );
        }
      };
      await fetchOne(place.info.tokenizer, files.tokenizerFile);
      await fetchOne(place.info.model, files.modelFile);
      return files;
    })().finally(() => pending.delete(place.dir));
    pending.set(place.dir, download);
  }
  return download;
}
