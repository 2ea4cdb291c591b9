import { throwIfAborted } from "./types";

/** A counting semaphore whose waiters leave when their signal aborts. */
export function createSlots(size: number) {
  let free = size;
  const waiting: Array<() => void> = [];
  return {
    async take(signal?: AbortSignal): Promise<() => void> {
      throwIfAborted(signal);
      if (free > 0) {
        free--;
      } else {
        await new Promise<void>((resolve, reject) => {
          const grant = () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          };
          const onAbort = () => {
            waiting.splice(waiting.indexOf(grant), 1);
            reject(signal!.reason);
          };
          waiting.push(grant);
          signal?.addEventListener("abort", onAbort, { once: true });
        });
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = waiting.shift();
        if (next) next();
        else free++;
      };
    },
  };
}
