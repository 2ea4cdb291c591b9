// Next.js's cache (next.config.ts `cacheHandler`): its own file-system cache (pages and data in memory,
// `experimental.isrFlushToDisk` off), plus one thing: an expired tag reaches every app process. Next.js
// keeps the expired tags of its cache in process memory, so an unpublished page expired by one process
// would still be served by the others. Loaded by Next.js itself (plain JavaScript, outside the bundle); the
// app side, lib/cache/tag-broadcast.ts, sends and receives the expirations over PostgreSQL LISTEN/NOTIFY
// through the hook below. Without it (the embedded database: one process) expirations stay local.
import fileSystemCache from "next/dist/server/lib/incremental-cache/file-system-cache.js";

/** Next.js's own handler (a CommonJS module: its class is the `default` of module.exports; bundlers hand the class itself). */
const FileSystemCache = fileSystemCache.default ?? fileSystemCache;

const HOOK = Symbol.for("verbatim.next-cache-tags");
/** @type {{ expireLocally: (tags: string[], durations?: { expire?: number }) => Promise<void>, broadcast: null | ((tags: string[], durations?: { expire?: number }) => Promise<void>) }} */
const hook = (globalThis[HOOK] ??= { expireLocally: null, broadcast: null });
// The expired-tag list is module state of Next.js's cache; any instance's method writes it.
hook.expireLocally = (tags, durations) => FileSystemCache.prototype.revalidateTag.call({}, tags, durations);

class SharedTagsCache extends FileSystemCache {
  async revalidateTag(tags, durations) {
    await super.revalidateTag(tags, durations);
    const list = typeof tags === "string" ? [tags] : tags;
    if (hook.broadcast && list.length > 0) await hook.broadcast(list, durations);
  }
}

export default SharedTagsCache;
