// Jobs' stored text follows the storable-text rule (lib/db/storable-text.ts): a failure whose message
// holds NUL bytes or an unpaired surrogate (a feed that starts with NUL bytes, quoted by the parser) is
// saved with U+FFFD in their place, once, instead of failing to save and being retried until "interrupted".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { z } from "zod";
import { definePipeline, PermanentError, pipelinesByName, RetryableError } from "@/lib/jobs/pipeline";
import { startLocalRunner } from "@/lib/jobs/drivers/local";
import { waitFor } from "@/test/jobs/helpers";

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let userId: string;

const nulFailure = definePipeline<{ permanent: boolean }>({
  name: "nul-failure",
  context: z.object({ permanent: z.boolean() }),
  maxAttempts: 2,
  steps: [
    {
      name: "fail",
      run: async (ctx, io) => {
        await io.progress("reading\u0000feed", 0.5);
        const message = "The feed is not well-formed XML (line 1, column 1: char '\u0000' is not expected \uD800)";
        throw ctx.permanent
          ? new PermanentError("feed_invalid", message)
          : new RetryableError("upstream_failed", message);
      },
    },
  ],
  onFailure: async () => undefined,
});

beforeAll(async () => {
  database = await useTestDatabase();
  userId = (await createUser(database.db)).id;
});

afterAll(async () => {
  await database?.teardown();
});

describe("jobs' stored text", () => {
  it("a failure message with NUL and an unpaired surrogate is saved (U+FFFD in their place), on the first attempt and on retries", async () => {
    const runner = await startLocalRunner({
      pipelines: pipelinesByName([nulFailure]),
      db: database.db,
      listenUrl: null,
      log: () => {},
      pollMs: 20,
      backoff: { baseMs: 10, maxMs: 10 },
    });
    try {
      const permanent = await enqueueJob(database.db, {
        userId,
        pipeline: nulFailure,
        context: { permanent: true },
        driver: "local",
      });
      const retried = await enqueueJob(database.db, {
        userId,
        pipeline: nulFailure,
        context: { permanent: false },
        driver: "local",
      });
      for (const id of [permanent.id, retried.id]) {
        const job = await waitFor(async () => {
          const row = await database.db.job.findUnique({ where: { id } });
          return row?.status === "error" ? row : null;
        });
        expect(job.errorMessage).toBe(
          "The feed is not well-formed XML (line 1, column 1: char '\uFFFD' is not expected \uFFFD)",
        );
        expect(job.errorCode).toBe(id === permanent.id ? "feed_invalid" : "upstream_failed");
        expect(job.stage).toBe("reading\uFFFDfeed");
        expect(job.attempts).toBe(id === permanent.id ? 1 : 2);
      }
    } finally {
      await runner.stop({ timeoutMs: 2_000 });
    }
  });
});
