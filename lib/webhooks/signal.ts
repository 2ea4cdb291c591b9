// Wakes delivery runners when deliveries are queued: this process's at once (deferred a little: the rows are
// inserted inside a transaction that commits after the call), other processes' by NOTIFY on WEBHOOKS_CHANNEL
// (sent inside that transaction, so delivered when it commits), their 1 s poll as the safety net.

export const WEBHOOKS_CHANNEL = "verbatim_webhooks";
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
