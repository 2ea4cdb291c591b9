import { unstable_cache } from "next/cache";

/**
 * `work` kept in Next.js's data cache under `tags` (expired with revalidateTag, lib/cache/public-pages.ts)
 * for at most `seconds`; results go through JSON. Outside the app (tests, scripts) there is no such cache
 * and every call does the work.
 */
export function cached<A extends unknown[], R>(
  work: (...args: A) => Promise<R>,
  key: string,
  tags: string[],
  seconds: number,
): (...args: A) => Promise<R> {
  const inCache = unstable_cache(work, [key], { tags, revalidate: seconds });
  return (...args: A): Promise<R> =>
    inCache(...args).catch((error: unknown) => (isOutsideNext(error) ? work(...args) : Promise.reject(error)));
}

const isOutsideNext = (error: unknown) =>
  error instanceof Error && error.message.startsWith("Invariant: incrementalCache missing in unstable_cache");
