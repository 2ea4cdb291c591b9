/**
 * Waits `ms`, or less when `signal` aborts: a pipeline step that polls between rounds ends its wait at once when its
 * run is cancelled or its process stops, and then sees the abort itself. Never rejects.
 */
export function pauseUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
