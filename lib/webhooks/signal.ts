// Wakes this process's delivery runner when deliveries were queued here (other processes find them by
// their poll). Deferred a little: the rows are inserted inside a transaction that commits after the call.
type Listener = () => void;
const state = globalThis as { verbatimWebhookListeners?: Set<Listener> };
const listeners = (state.verbatimWebhookListeners ??= new Set());

export function onWebhooksQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signalWebhooksQueued(): void {
  for (const delay of [20, 250]) setTimeout(() => listeners.forEach((listener) => listener()), delay).unref?.();
}
