/**
 * Next.js's file-system cache whose expired tags reach every app process, and whose entries are dated by
 * when their work began (see next-cache-handler.mjs).
 */
export default class SharedTagsCache {
  constructor(context: object);
  get(key: string, context: object): Promise<{ value: { kind: string }; lastModified: number } | null>;
  set(key: string, data: object, context: object): Promise<void>;
  revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void>;
}
