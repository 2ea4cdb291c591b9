// A call's deadline and the caller's signal, shared by every hop and attempt: one AbortController aborted at
// the deadline (reason: upstream_timeout) or with the caller's signal (its reason).
import { OutboundError } from "./errors";

export /** Per-call state shared by every hop and attempt. */
interface CallContext {
  started: number;
  deadline: number;
  timedOut: boolean;
  userSignal: AbortSignal | undefined;
  /** Aborted at the deadline (reason: upstream_timeout) or with the caller's signal (its reason). */
  controller: AbortController;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Starts a call's clock: aborts `controller` after `timeoutMs` or when `signal` aborts. `release` stops both
 * (a stream's body outlives the call's own deadline: `extendDeadline`).
 */
export function startCall(
  timeoutMs: number,
  signal: AbortSignal | undefined,
): { ctx: CallContext; release: () => void } {
  const controller = new AbortController();
  const started = Date.now();
  const ctx: CallContext = {
    started,
    deadline: started + timeoutMs,
    timedOut: false,
    userSignal: signal,
    controller,
    timer: undefined,
  };
  ctx.timer = setTimeout(() => {
    ctx.timedOut = true;
    controller.abort(timeoutError());
  }, timeoutMs);
  const onUserAbort = () => controller.abort(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
  if (signal?.aborted) onUserAbort();
  else signal?.addEventListener("abort", onUserAbort, { once: true });
  const release = () => {
    clearTimeout(ctx.timer);
    signal?.removeEventListener("abort", onUserAbort);
  };
  return { ctx, release };
}

/**
 * Moves the deadline from the response head to the whole body, `totalTimeoutMs` after the call started: from
 * then on a stream is also bounded by idle time (undici's bodyTimeout), size and the caller's signal.
 */
export function extendDeadline(ctx: CallContext, totalTimeoutMs: number): void {
  clearTimeout(ctx.timer);
  ctx.timer = setTimeout(
    () => {
      ctx.timedOut = true;
      ctx.controller.abort(
        new OutboundError("upstream_timeout", "The upstream server took too long to send the whole answer."),
      );
    },
    Math.max(0, ctx.started + totalTimeoutMs - Date.now()),
  );
  ctx.timer.unref();
}

export function timeoutError(): OutboundError {
  return new OutboundError("upstream_timeout", "The upstream server took too long to respond.");
}

export function remaining(ctx: CallContext): number {
  return ctx.deadline - Date.now();
}

export function throwIfDone(ctx: CallContext): void {
  if (ctx.userSignal?.aborted) throw ctx.userSignal.reason;
  if (ctx.timedOut || remaining(ctx) <= 0) throw timeoutError();
}

/** Waits for `ms`, cut short (with an error) by the deadline or the caller's signal. */
export function sleep(ms: number, ctx: CallContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const signal = ctx.controller.signal;
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
