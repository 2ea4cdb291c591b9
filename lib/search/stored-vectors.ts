import { dbKind, type Db } from "@/lib/db/client";
import { statementTimeoutMs } from "@/lib/search/deadline";
import type { Prisma } from "@/lib/generated/prisma/client";
import { searchPlannerSettings } from "@/lib/search/planner-settings";
import { runSearchStatement, runStatement } from "@/lib/search/queries";

/** A visible passage and how near its stored vector is to a query's. */
export interface VectorCandidate {
  pid: bigint;
  transcriptId: string;
  revisionId: string | null;
  score: number;
}

/**
 * Runs `statement` (rows of `pid`, `transcriptId`, `revisionId`, the stored `vector` and its `scale`) and scores
 * each row's vector against `query` (cosine: both unit length). Under the search statement's settings
 * (planner-settings.ts): the rows are bounded, but on a large corpus the planner's estimate of them passes
 * jit_above_cost, and compiling cost many times the statement's own work. PGlite has no JIT, and a transaction of
 * its own would cost the statement a turn of the embedded database. Compared from the stored bytes (int8 × scale)
 * without a copy of each: a large scope reads many.
 */
export async function scoreStoredVectors(
  db: Db,
  statement: Prisma.Sql,
  query: Float32Array,
): Promise<VectorCandidate[]> {
  type Row = { pid: bigint; transcriptId: string; revisionId: string | null; vector: Uint8Array; scale: number };
  const rows =
    (await dbKind()) === "pglite"
      ? await runStatement<Row>(db, statement)
      : await runSearchStatement<Row>(db, statement, searchPlannerSettings({ timeoutMs: statementTimeoutMs() }));
  return rows.flatMap((r) => {
    if (r.vector.length !== query.length) return [];
    const signed = new Int8Array(r.vector.buffer, r.vector.byteOffset, r.vector.length);
    let dot = 0;
    for (let d = 0; d < signed.length; d++) dot += signed[d]! * query[d]!;
    return [{ pid: r.pid, transcriptId: r.transcriptId, revisionId: r.revisionId, score: dot * r.scale }];
  });
}
