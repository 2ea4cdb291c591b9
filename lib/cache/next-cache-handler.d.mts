/** Next.js's file-system cache whose expired tags reach every app process (see next-cache-handler.mjs). */
export default class SharedTagsCache {
  constructor(context: object);
  revalidateTag(tags: string | string[], durations?: { expire?: number }): Promise<void>;
}
