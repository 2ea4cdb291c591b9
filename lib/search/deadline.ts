import { AsyncLocalStorage } from "node:async_hooks";
import { sqlState } from "@/lib/db/sql-state";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";

// One deadline for a whole search (SEARCH_TIMEOUT_MS from its start), not one per statement: each statement it
// sends gets what is left as its statement_timeout, so a search of many statements still answers within it. A
// stage that is only a part of the answer (the meaning list, a spelling, a page asked again with more candidates)
// is dropped when the deadline cuts it, and the answer says it is `partial`; a search that has nothing to answer
// when it runs out is a 503 with Retry-After (`search_timed_out`), never a 500.

interface Deadline {
  at: number;
  partial: boolean;
}

const holder = globalThis as { verbatimSearchDeadline?: AsyncLocalStorage<Deadline> };
const storage = (holder.verbatimSearchDeadline ??= new AsyncLocalStorage<Deadline>());

/** The least statement_timeout a statement is sent with: 0 would turn the timeout off. */
const LEAST_MS = 1;

/** Runs `search` under one deadline of SEARCH_TIMEOUT_MS; whether a stage of it was cut short. */
export async function withSearchDeadline<T>(search: () => Promise<T>): Promise<{ value: T; partial: boolean }> {
  const deadline: Deadline = { at: performance.now() + env().SEARCH_TIMEOUT_MS, partial: false };
  const value = await storage.run(deadline, search);
  return { value, partial: deadline.partial };
}

/**
 * The statement_timeout of the next statement: what is left of the search's deadline, or SEARCH_TIMEOUT_MS outside
 * one (an alert's check). A deadline already past is a timeout before anything is sent.
 */
export function statementTimeoutMs(): number {
  const deadline = storage.getStore();
  if (!deadline) return env().SEARCH_TIMEOUT_MS;
  const left = Math.floor(deadline.at - performance.now());
  if (left < LEAST_MS) throw searchTimedOut();
  return left;
}

/** Stops a search past its deadline between its statements (those sent without a statement_timeout too). */
export function stopIfPastDeadline(): void {
  statementTimeoutMs();
}

/** Prisma's limits for the transaction a statement runs in: its connection waited for no longer than the deadline. */
export function transactionLimits(timeoutMs: number): { maxWait: number; timeout: number } {
  return { maxWait: storage.getStore() ? timeoutMs : 10_000, timeout: timeoutMs + 5_000 };
}

/**
 * Whether `error` is the search's deadline: PostgreSQL cancelled a statement at its statement_timeout (57014), the
 * deadline passed before one was sent, or Prisma gave up on the transaction around it (P2028).
 */
export function isSearchTimeout(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === "search_timed_out";
  return sqlState(error) === "57014" || (error as { code?: unknown } | null)?.code === "P2028";
}

/** The answer to a search that ran out of its deadline with nothing to show: 503, ask again later. */
export function searchTimedOut(): ApiError {
  return new ApiError(
    "search_timed_out",
    "This search did not finish in time. Try again in a few seconds, or use more specific words or a shorter phrase.",
    { "Retry-After": String(Math.max(1, Math.ceil((2 * env().SEARCH_TIMEOUT_MS) / 1000))) },
  );
}

/** `error` as the search answers it: its deadline as search_timed_out, anything else as it was. */
export function asSearchError(error: unknown): unknown {
  return isSearchTimeout(error) ? searchTimedOut() : error;
}

/**
 * Runs a stage that is only a part of the answer, within `share` of what is left of the deadline (the rest is kept
 * for what the answer cannot go without): cut by it, the answer goes without the stage (`instead`) and says it is
 * partial.
 */
export async function unlessTimedOut<T>(stage: () => Promise<T>, instead: T, share = 1): Promise<T> {
  const outer = storage.getStore();
  const now = performance.now();
  const own = outer && share < 1 ? { at: now + share * (outer.at - now), partial: false } : outer;
  try {
    return await (own && own !== outer ? storage.run(own, stage) : stage());
  } catch (error) {
    if (!isSearchTimeout(error)) throw error;
    if (own) own.partial = true;
    return instead;
  } finally {
    if (outer && own?.partial) outer.partial = true;
  }
}
