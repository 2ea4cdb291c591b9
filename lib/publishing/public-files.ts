import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { runOffThread } from "@/lib/process/off-thread";
import type { TranscriptMeta } from "@/lib/formats/types";
import {
  renderFileJob,
  type FileRenderJob,
  type FileRenderOutcome,
  type PublicFileKind,
} from "@/lib/publishing/file-render";
import { isSlug } from "@/lib/publishing/slug";
import type { Version } from "@/lib/publishing/public-version";
import { seenAt, segmentsTextAsSeenBy } from "@/lib/transcripts/read";

// A published transcript's files (the podcast feed's transcript.{vtt,srt,json,html} and the public downloads)
// cost their readers' event loop nothing but a small query and a copy:
// - A 304 is answered from the version query alone (publishedVersion): nothing is loaded or rendered.
// - A file is rendered once per version and kept in memory by its slug, kind and ETag (the ETag names the
//   exact version, so an entry is never stale; a save changes the ETag, so the next read renders again).
//   Bounded by bytes; the least recently used goes first, and a newer version of a file drops the older one.
// - Readers that arrive while it renders wait for that one rendering.
// - Rendering reads the segments as JSON text straight from the database (the publisher's newest revision,
//   else the transcript's: the read model's overlay, segmentsTextAsSeenBy in lib/transcripts/read), never as
//   objects on the event loop, and a long one is parsed and rendered in a worker thread
//   (lib/process/off-thread.ts), whose bytes come back moved, not copied.

/** Memory for rendered files, in bytes: a few dozen of the longest transcripts. */
export const FILE_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** Segments' JSON text up to this many characters is rendered on the spot: a thread's start costs more. */
export const INLINE_MAX_CHARS = 100_000;
const RENDER_THREADS = 2;
const RENDER_TIMEOUT_MS = 20_000;
const RENDER_MEMORY_MB = 512;

export interface RenderedFile {
  /** The version rendered. */
  version: Version;
  bytes: Uint8Array<ArrayBuffer>;
  lang: string;
  /** Downloads: the file's Content-Type, extension, and the title it is named after. */
  contentType: string | null;
  extension: string | null;
  title: string | null;
}

const files = new Map<string, RenderedFile>();
/** The key of each slug and kind's cached version, so a newer one replaces it. */
const newest = new Map<string, string>();
let cachedBytes = 0;
const rendering = new Map<string, Promise<RenderedFile>>();
let renders = 0;

/** How many files have been rendered in this process (tests observe the cache with it). */
export function publicFileRenders(): number {
  return renders;
}

const kindKey = (slug: string, file: PublicFileKind) =>
  "download" in file ? `${slug}\ndownload.${file.download}` : `${slug}\ntranscript.${file.podcast}`;

function recall(key: string): RenderedFile | undefined {
  const file = files.get(key);
  if (file) {
    files.delete(key);
    files.set(key, file);
  }
  return file;
}

function forget(key: string): void {
  const file = files.get(key);
  if (!file) return;
  files.delete(key);
  cachedBytes -= file.bytes.byteLength;
  const slugKind = key.slice(0, key.lastIndexOf("\n"));
  if (newest.get(slugKind) === key) newest.delete(slugKind);
}

function remember(slugKind: string, key: string, file: RenderedFile): void {
  if (file.bytes.byteLength > FILE_CACHE_MAX_BYTES / 4) return;
  const older = newest.get(slugKind);
  if (older !== undefined && older !== key) forget(older);
  forget(key);
  for (const [oldest] of files) {
    if (cachedBytes + file.bytes.byteLength <= FILE_CACHE_MAX_BYTES) break;
    forget(oldest);
  }
  files.set(key, file);
  newest.set(slugKind, key);
  cachedBytes += file.bytes.byteLength;
}

interface Published {
  id: string;
  userId: string;
  transcriptId: string;
  publishedAt: Date;
  transcriptFetchedAt: Date;
  title: string | null;
  lang: string;
  platform: string;
  sourceUrl: string;
  videoId: string;
  chapters: unknown;
}

/** The published slug's row and what the files print besides its segments, or null. */
async function published(slug: string): Promise<Published | null> {
  if (!isSlug(slug)) return null;
  const db = await getDb();
  const rows = await db.$queryRaw<Published[]>`
    SELECT p."id", p."userId", p."transcriptId", p."publishedAt", t."fetchedAt" AS "transcriptFetchedAt",
           t."title", t."lang", t."platform", t."sourceUrl", t."videoId", t."chapters"
    FROM "Publication" p
    JOIN "Transcript" t ON t."id" = p."transcriptId"
    WHERE p."slug" = ${slug} AND p."publishedAt" IS NOT NULL`;
  return rows[0] ?? null;
}

function metaOf(row: Published): TranscriptMeta {
  // An upload is public under its title only: no storage path, no object id (serializers.ts).
  const upload = row.platform === "upload";
  const chapters = Array.isArray(row.chapters)
    ? (row.chapters as unknown[]).filter(
        (c): c is { start: number; title: string } =>
          typeof c === "object" &&
          c !== null &&
          typeof (c as { start?: unknown }).start === "number" &&
          typeof (c as { title?: unknown }).title === "string",
      )
    : [];
  return {
    title: row.title,
    sourceUrl: upload ? "" : row.sourceUrl,
    platform: row.platform,
    videoId: upload ? "" : row.videoId,
    lang: row.lang,
    chapters,
  };
}

const tooLong = () => new Error("Rendering a public transcript file took longer than its deadline.");

async function renderFile(slug: string, file: PublicFileKind): Promise<RenderedFile | null> {
  const row = await published(slug);
  if (!row) return null;
  // What its publisher sees: the read model's rule for which correction is theirs.
  const seen = await segmentsTextAsSeenBy(row.userId, row.transcriptId);
  if (!seen) return null;
  const version: Version = {
    id: row.id,
    publishedAt: new Date(row.publishedAt),
    fetchedAt: seenAt(new Date(row.transcriptFetchedAt), seen.revisedAt),
  };
  const job: FileRenderJob = { kind: "public-file", file, segmentsJson: seen.segments, meta: metaOf(row) };
  renders++;
  const outcome =
    seen.segments.length <= INLINE_MAX_CHARS
      ? renderFileJob(job)
      : await runOffThread<FileRenderOutcome>(
          job,
          { threads: RENDER_THREADS, timeoutMs: RENDER_TIMEOUT_MS, memoryMb: RENDER_MEMORY_MB },
          tooLong,
        );
  return { version, ...outcome, lang: row.lang, title: row.title };
}

/**
 * The file `file` of published `slug` at `version` (the caller has answered a current copy with 304 already):
 * from memory when this version was rendered before, else rendered (once, however many readers wait for it).
 * `etagOf` names a version of this file. 404 when the slug is no longer published.
 */
export async function publicFile(
  slug: string,
  file: PublicFileKind,
  version: Version,
  etagOf: (version: Version) => string,
): Promise<RenderedFile> {
  const slugKind = kindKey(slug, file);
  const key = `${slugKind}\n${etagOf(version)}`;
  const cached = recall(key);
  if (cached) return cached;
  let pending = rendering.get(key);
  if (!pending) {
    pending = renderFile(slug, file).then((rendered) => {
      if (!rendered) throw notPublished();
      // Kept under the version actually read (a save in between makes it a newer one).
      remember(slugKind, `${slugKind}\n${etagOf(rendered.version)}`, rendered);
      return rendered;
    });
    rendering.set(key, pending);
    void pending.then(
      () => rendering.delete(key),
      () => rendering.delete(key),
    );
  }
  return pending;
}

const notPublished = () => errors.notFound("No published transcript has this slug.");
