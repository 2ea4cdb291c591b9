// Next.js's cache (next.config.ts `cacheHandler`): its own file-system cache (pages and data in memory,
// `experimental.isrFlushToDisk` off), plus two things. An entry is dated by when its work began, not when it
// was stored (see SharedTagsCache.set). An expired tag reaches every app process: Next.js
// keeps the expired tags of its cache in process memory, so an unpublished page expired by one process
// would still be served by the others. Loaded by Next.js itself (plain JavaScript, outside the bundle); the
// app side, lib/cache/tag-broadcast.ts, sends and receives the expirations over PostgreSQL LISTEN/NOTIFY
// through the hook below. Without it (the embedded database: one process) expirations stay local.
import fileSystemCache from "next/dist/server/lib/incremental-cache/file-system-cache.js";
import { tagsManifest } from "next/dist/server/lib/incremental-cache/tags-manifest.external.js";

/** Next.js's own handler (a CommonJS module: its class is the `default` of module.exports; bundlers hand the class itself). */
const FileSystemCache = fileSystemCache.default ?? fileSystemCache;

const HOOK = Symbol.for("verbatim.next-cache-tags");
/** @type {{ expireLocally: (tags: string[], durations?: { expire?: number }) => Promise<void>, broadcast: null | ((tags: string[], durations?: { expire?: number }) => Promise<void>) }} */
const hook = (globalThis[HOOK] ??= { expireLocally: null, broadcast: null });
/**
 * The clock Next.js's cache compares an expiry and an entry's date with. Its own handler dates both by the
 * wall clock (`Date.now()`), which moves apart from this one in a long-running process: with the wall clock
 * ahead, an expiry lies in the future of the comparison, and a page unpublished a moment ago is still served.
 */
const cacheNow = () => performance.timeOrigin + performance.now();

/** Next.js's own expiry (FileSystemCache.revalidateTag), dated by the cache's clock. */
function expireTags(tags, durations) {
  const now = cacheNow();
  for (const tag of typeof tags === "string" ? [tags] : tags) {
    const entry = tagsManifest.get(tag) ?? {};
    if (!durations) tagsManifest.set(tag, { ...entry, expired: now });
    else
      tagsManifest.set(tag, {
        ...entry,
        stale: now,
        ...(durations.expire !== undefined ? { expired: now + durations.expire * 1000 } : {}),
      });
  }
}

hook.expireLocally = async (tags, durations) => expireTags(tags, durations);

/**
 * When the work behind each key's next store began: the first lookup since its last store that was not a
 * fresh hit (a miss, or a stale entry whose regeneration follows). Oldest note first; past the bound the
 * oldest goes, and its key is then stored as Next.js stores it.
 * @type {Map<string, number>}
 */
const workStartedAt = new Map();
const WORK_KEYS_KEPT = 10_000;

/** A hit that starts no work: revalidated by time, and not yet due (Next.js's incremental cache's own test). */
function isFreshHit(entry, context) {
  if (!entry?.value) return false;
  const seconds =
    entry.value.kind === "FETCH" ? context?.revalidate || entry.value.revalidate : entry.cacheControl?.revalidate;
  if (typeof seconds !== "number") return seconds === false || seconds === undefined;
  return cacheNow() < (entry.lastModified ?? 0) + seconds * 1000;
}

class SharedTagsCache extends FileSystemCache {
  async get(key, context) {
    const noted = cacheNow();
    const entry = await super.get(key, context);
    if (!isFreshHit(entry, context) && !workStartedAt.has(key)) {
      workStartedAt.set(key, noted);
      if (workStartedAt.size > WORK_KEYS_KEPT) workStartedAt.delete(workStartedAt.keys().next().value);
    }
    return entry;
  }

  // Next.js dates a stored entry by when it was stored, and an expired tag hides entries dated before the
  // expiry: a render that read the database before a page was unpublished, and was stored after, would be
  // served as fresh until its revalidation time. The entry is dated by when its work began instead.
  async set(key, data, context) {
    const startedAt = workStartedAt.get(key);
    workStartedAt.delete(key);
    // Next.js's in-memory store is written before set's first await: dated here, before anyone can read it.
    const storing = super.set(key, data, context);
    const stored = FileSystemCache.memoryCache?.get(key);
    if (stored) stored.lastModified = startedAt ?? cacheNow();
    await storing;
  }

  async revalidateTag(tags, durations) {
    expireTags(tags, durations);
    const list = typeof tags === "string" ? [tags] : tags;
    if (hook.broadcast && list.length > 0) await hook.broadcast(list, durations);
  }
}

export default SharedTagsCache;
