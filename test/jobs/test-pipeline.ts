// A three-step pipeline for the job tests: every step and hook records what it did in `test_effects`
// (with the job's lease owner at that moment), so tests can count executions per job.
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { definePipeline, PermanentError, type Pipeline } from "@/lib/jobs/pipeline";
import type { DbOrTx } from "@/lib/jobs/store";

const testContextSchema = z.looseObject({
  trail: z.array(z.string()),
  /** Step "two" sleeps this long on attempt `sleepOnAttempt` (default 1). */
  sleepMs: z.number().optional(),
  sleepOnAttempt: z.number().optional(),
  /** Step "two" fails this many times (retryable) before it succeeds. */
  failTimes: z.number().optional(),
  /** Step "two" fails with a PermanentError. */
  permanent: z.boolean().optional(),
  /** Every step sleeps this long (to overlap jobs). */
  stepMs: z.number().optional(),
});

export type TestContext = z.infer<typeof testContextSchema>;

export const CREATE_EFFECTS_TABLE = `CREATE TABLE IF NOT EXISTS test_effects (
  id serial PRIMARY KEY,
  job_id text NOT NULL,
  kind text NOT NULL,
  owner text,
  attempt int,
  detail text,
  at timestamptz NOT NULL DEFAULT clock_timestamp()
)`;

export async function record(
  db: DbOrTx,
  jobId: string,
  kind: string,
  attempt: number | null,
  detail: string | null = null,
) {
  await db.$executeRaw`
    INSERT INTO test_effects (job_id, kind, owner, attempt, detail)
    SELECT ${jobId}, ${kind}, (SELECT "leaseOwner" FROM "Job" WHERE "id" = ${jobId}), ${attempt}::int, ${detail}`;
}

export interface Effect {
  job_id: string;
  kind: string;
  owner: string | null;
  attempt: number | null;
  detail: string | null;
  at: Date;
}

export async function effects(db: DbOrTx, jobId?: string): Promise<Effect[]> {
  return jobId
    ? db.$queryRaw<
        Effect[]
      >`SELECT job_id, kind, owner, attempt, detail, at FROM test_effects WHERE job_id = ${jobId} ORDER BY id`
    : db.$queryRaw<Effect[]>`SELECT job_id, kind, owner, attempt, detail, at FROM test_effects ORDER BY id`;
}

export function makeTestPipeline(name: string, getDb: () => Promise<DbOrTx>): Pipeline<TestContext> {
  const pause = async (ms: number | undefined, signal: AbortSignal) => {
    if (ms && ms > 0) await sleep(ms, undefined, { signal });
  };
  return definePipeline<TestContext>({
    name,
    context: testContextSchema,
    steps: [
      {
        name: "one",
        async run(ctx, io) {
          await pause(ctx.stepMs, io.signal);
          await record(await getDb(), io.jobId, "one", io.attempt);
          return { trail: [...ctx.trail, "one"] };
        },
      },
      {
        name: "two",
        async run(ctx, io) {
          const db = await getDb();
          await record(db, io.jobId, "two-start", io.attempt);
          await pause(ctx.stepMs, io.signal);
          if (ctx.sleepMs && io.attempt === (ctx.sleepOnAttempt ?? 1)) await pause(ctx.sleepMs, io.signal);
          if (ctx.permanent) {
            await record(db, io.jobId, "two-permanent", io.attempt);
            throw new PermanentError("invalid_job_context", "The input can never work");
          }
          if (ctx.failTimes) {
            const failed = await db.$queryRaw<{ n: number }[]>`
              SELECT count(*)::int AS n FROM test_effects WHERE job_id = ${io.jobId} AND kind = 'two-fail'`;
            if ((failed[0]?.n ?? 0) < ctx.failTimes) {
              await record(db, io.jobId, "two-fail", io.attempt);
              throw new Error("Transient trouble");
            }
          }
          await record(db, io.jobId, "two", io.attempt);
          return { trail: [...ctx.trail, "two"] };
        },
      },
      {
        name: "three",
        async run(ctx, io) {
          await pause(ctx.stepMs, io.signal);
          await io.progress("finishing", 0.9);
          await record(await getDb(), io.jobId, "three", io.attempt, ctx.trail.join(","));
          return { trail: [...ctx.trail, "three"] };
        },
      },
    ],
    async onSuccess(ctx, io) {
      await record(io.tx, io.jobId, "charge", null, ctx.trail.join(","));
      return { chargedSecs: 7 };
    },
    async onFailure(_ctx, failure, io) {
      await record(io.tx, io.jobId, "refund", null, failure.code);
    },
  });
}

/** An instant pipeline with one step that does nothing (benchmarks). */
export function makeNoopPipeline(name: string): Pipeline<Record<string, unknown>> {
  return definePipeline<Record<string, unknown>>({
    name,
    context: z.record(z.string(), z.unknown()),
    steps: [{ name: "noop", run: async () => undefined }],
    onFailure: async () => {},
  });
}
