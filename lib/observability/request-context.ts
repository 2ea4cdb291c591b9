import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

// What every log line of one request or one job run carries: the request id (from the request that
// started it, for a job) and the job id. Kept in AsyncLocalStorage, on globalThis so that the request
// guard (bundled with instrumentation.ts) and route handlers (bundled per route) share one store.

export interface LogContext {
  requestId?: string;
  jobId?: string;
}

const holder = globalThis as { verbatimLogContext?: AsyncLocalStorage<LogContext> };
const storage = (holder.verbatimLogContext ??= new AsyncLocalStorage<LogContext>());

/** Runs `work` with `context` added to what the enclosing context already carries. */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, work);
}

export function logContext(): LogContext | undefined {
  return storage.getStore();
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The client's X-Request-Id when it is well-formed (≤ 128 of [A-Za-z0-9._-]), else a fresh UUID. */
export function requestIdFrom(header: string | string[] | undefined | null): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && WELL_FORMED_REQUEST_ID.test(value) ? value : randomUUID();
}
