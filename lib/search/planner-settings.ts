import type { SqlStatement } from "@/lib/search/search-statement";

// The PostgreSQL settings the search statement (search-statement.ts) runs under, for its own transaction
// only (set_config(name, value, true)), each with the reason it is needed.

export interface SearchPlannerSettings {
  /** The statement's deadline (SEARCH_TIMEOUT_MS): past it PostgreSQL cancels it (57014), a 422 for the caller. */
  statement_timeout: string;
  /**
   * Serial. The candidates are the first SEARCH_MAX_CANDIDATES visible matches in the order the plan reads
   * them; parallel workers (chosen since the view "SearchPassage" is a UNION ALL: Parallel Append) hand them
   * over in no fixed order, so two pages of one query could rank different candidates; and starting the
   * workers costs about what the bounded work they share saves.
   */
  max_parallel_workers_per_gather: "0";
  /**
   * No JIT: the planner's estimate of all the matches of a frequent word passes jit_above_cost while the
   * statement stops at the bound, so compiling would cost more than the statement's own work.
   */
  jit: "off";
  /**
   * No synchronized scans: one would start reading the passages where another scan is, and reading in table
   * order (search-plan.ts's scansInOrder) must find the same candidates on every page.
   */
  synchronize_seqscans: "off";
  /** Off when the plan reads in table order: the word index can only give a bitmap, which holds every match. */
  enable_bitmapscan: "on" | "off";
}

export function searchPlannerSettings({
  timeoutMs,
  inOrder,
}: {
  timeoutMs: number;
  inOrder: boolean;
}): SearchPlannerSettings {
  return {
    statement_timeout: String(timeoutMs),
    max_parallel_workers_per_gather: "0",
    jit: "off",
    synchronize_seqscans: "off",
    enable_bitmapscan: inOrder ? "off" : "on",
  };
}

/** The statement that makes `settings` the transaction's: the names are fixed above, the values parameters. */
export function settingsStatement(settings: SearchPlannerSettings): SqlStatement {
  const entries = Object.entries(settings);
  return {
    text: `SELECT ${entries.map(([name], i) => `set_config('${name}', $${i + 1}, true)`).join(", ")}`,
    params: entries.map(([, value]) => value),
  };
}
