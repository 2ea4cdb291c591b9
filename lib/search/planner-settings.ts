import { Prisma } from "@/lib/generated/prisma/client";

// The PostgreSQL settings the search statement (search-statement.ts) runs under, for its own transaction
// only (set_config(name, value, true)), each with the reason it is needed.

export interface SearchPlannerSettings {
  /** What is left of the search's deadline (deadline.ts): past it PostgreSQL cancels the statement (57014). */
  statement_timeout: string;
  /**
   * Serial. Every way of finding the candidates is bounded (search-plan.ts), so starting workers (chosen since
   * the view "SearchPassage" is a UNION ALL: Parallel Append) costs about what the work they would share saves.
   */
  max_parallel_workers_per_gather: "0";
  /**
   * No JIT: the planner's estimate of all the matches of a frequent word passes jit_above_cost while the
   * statement stops at the bound, so compiling would cost more than the statement's own work.
   */
  jit: "off";
  /**
   * Off for a bounded look at every match (a conjunction's, CONJUNCTION_MATCHES): with a LIMIT the planner may read
   * the passages in table order hoping to stop early, which for matches spread thin reads most of the table; the
   * words' index finds them all at the cost of their lists.
   */
  enable_seqscan?: "off";
}

export function searchPlannerSettings({
  timeoutMs,
  indexOnly = false,
}: {
  timeoutMs: number;
  indexOnly?: boolean;
}): SearchPlannerSettings {
  return {
    statement_timeout: String(timeoutMs),
    max_parallel_workers_per_gather: "0",
    jit: "off",
    ...(indexOnly ? { enable_seqscan: "off" as const } : {}),
  };
}

/** The statement that makes `settings` (names and values, both parameters) the transaction's. */
export function settingsStatement(settings: SearchPlannerSettings | Readonly<Record<string, string>>): Prisma.Sql {
  const calls = Object.entries(settings).map(([name, value]) => Prisma.sql`set_config(${name}, ${value}, true)`);
  return Prisma.sql`SELECT ${Prisma.join(calls, ", ")}`;
}
