// AssemblyAI's webhook as a wake-up call for the waits in this process (assemblyai.ts).
// Pending waits by transcript id. A webhook for one of them marks it and wakes its sleep; the wait then
// polls once more (the webhook body is not trusted: it only says when to look).
export interface Waiter {
  signalled: boolean;
  wake: (() => void) | null;
}
const waiters = new Map<string, Set<Waiter>>();

/**
 * Feed AssemblyAI's webhook delivery ({transcript_id, status}, as an object or JSON text) here. Wakes
 * the waits in this process for that transcript, which fetch it at once. Returns what the body named and
 * whether anything here was waiting for it; null when the body is not an AssemblyAI webhook. Safe to call
 * with unauthenticated input: it never reads the transcript from the body.
 */
export function handleAssemblyAiWebhook(
  body: unknown,
): { transcriptId: string; status: string; waiting: boolean } | null {
  let value = body;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== "object") return null;
  const { transcript_id: transcriptId, status } = value as { transcript_id?: unknown; status?: unknown };
  if (typeof transcriptId !== "string" || !transcriptId) return null;
  const pending = waiters.get(transcriptId);
  for (const waiter of pending ?? []) {
    waiter.signalled = true;
    waiter.wake?.();
  }
  return { transcriptId, status: typeof status === "string" ? status : "", waiting: Boolean(pending?.size) };
}

/** Sleeps `ms`, returning early when a webhook for the transcript arrived (or arrives meanwhile). */
export function nap(waiter: Waiter, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    if (waiter.signalled) {
      waiter.signalled = false;
      return resolve();
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      waiter.wake = null;
      waiter.signalled = false;
    };
    const onAbort = () => {
      done();
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    waiter.wake = () => {
      done();
      resolve();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A wait for transcript `id` that its webhook can wake; removeWaiter when the wait ends. */
export function addWaiter(id: string): Waiter {
  const waiter: Waiter = { signalled: false, wake: null };
  let set = waiters.get(id);
  if (!set) waiters.set(id, (set = new Set()));
  set.add(waiter);
  return waiter;
}

export function removeWaiter(id: string, waiter: Waiter): void {
  const set = waiters.get(id);
  if (!set) return;
  set.delete(waiter);
  if (set.size === 0) waiters.delete(id);
}
