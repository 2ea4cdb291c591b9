import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { StaticCaptionProvider } from "@/test/fakes/static-captions";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import { transcriptRequestSchema } from "@/lib/transcripts/schemas";
import { createOutbound } from "@/lib/http/outbound";
import { ApiError } from "@/lib/http/errors";

// Speech-recognition jobs and the allowance, on real PostgreSQL (no runner: the jobs stay queued, and the
// reservation's settle and refund are driven the way the pipeline drives them).
// - One job, one charge: concurrent identical submissions share one job and one reservation.
// - A reservation is settled and refunded in the period it was charged to, across a month boundary.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let requestTranscript: typeof import("@/lib/transcripts/request-transcript").requestTranscript;
let reservation: typeof import("@/lib/usage/reservation");
let transcribePipeline: typeof import("@/lib/transcripts/transcribe-pipeline").transcribePipeline;
let recordCharge: (userId: string, seconds: number) => Promise<unknown>;

// No "fr" track on either video: a French request needs speech recognition, estimated at the video's length.
const videos = {
  aaaaaaaaaaa: {
    title: "Five minutes",
    durationSeconds: 300,
    tracks: [{ lang: "en", name: "English", kind: "manual" as const }],
  },
  bbbbbbbbbbb: {
    title: "Two minutes",
    durationSeconds: 120,
    tracks: [{ lang: "en", name: "English", kind: "manual" as const }],
  },
};
const deps: TranscriptDeps = {
  outbound: createOutbound(),
  providerFor: (p) => (p === "youtube" ? new StaticCaptionProvider(videos) : null),
  cacheHours: 24,
};
const french = (id: string) =>
  transcriptRequestSchema.parse({ url: `https://www.youtube.com/watch?v=${id}`, lang: "fr" });

beforeAll(async () => {
  // A provider must be configured for a job to be accepted; no job runs here, so nothing listens there.
  process.env.ASR_OPENAI_BASE_URL = "http://127.0.0.1:9";
  ctx = await useTestDatabase();
  ({ requestTranscript } = await import("@/lib/transcripts/request-transcript"));
  reservation = await import("@/lib/usage/reservation");
  ({ transcribePipeline } = await import("@/lib/transcripts/transcribe-pipeline"));
  const { chargeSeconds } = await import("@/lib/usage/charge");
  recordCharge = (userId, seconds) => ctx.db.$transaction((tx) => chargeSeconds(tx, userId, seconds));
});
afterEach(() => vi.useRealTimers());
afterAll(async () => ctx?.teardown());

const usage = (userId: string) =>
  ctx.db.usagePeriod.findMany({
    where: { userId },
    orderBy: { periodStart: "asc" },
    select: { periodStart: true, usedSeconds: true },
  });

async function startJob(userId: string, id = "aaaaaaaaaaa"): Promise<string> {
  const outcome = await requestTranscript(userId, french(id), deps);
  if (outcome.kind !== "job") throw new Error("expected a job");
  return outcome.job.jobId;
}

describe("one job, one charge", () => {
  it("10 concurrent identical submissions → one job, one reservation, every answer names it", async () => {
    const user = await createUser(ctx.db);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => requestTranscript(user.id, french("aaaaaaaaaaa"), deps)),
    );
    const jobIds = outcomes.map((outcome) => (outcome.kind === "job" ? outcome.job.jobId : null));
    expect(new Set(jobIds).size).toBe(1);
    expect(jobIds[0]).toEqual(expect.any(String));

    const jobs = await ctx.db.job.findMany({ where: { userId: user.id } });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ id: jobIds[0], status: "queued", reservedSecs: 300 });
    // Charged once: 300 of 900, not 900 and seven 402s.
    expect((await usage(user.id)).map((row) => row.usedSeconds)).toEqual([300]);
    expect(await ctx.db.transcription.findMany({ where: { userId: user.id } })).toMatchObject([
      { jobId: jobIds[0], state: "in_progress", totalSeconds: 300 },
    ]);
  });

  it("another language or another video is another job; a failed job's entry is re-armed with a new one", async () => {
    const user = await createUser(ctx.db);
    const [first, other] = await Promise.all([startJob(user.id, "aaaaaaaaaaa"), startJob(user.id, "bbbbbbbbbbb")]);
    expect(first).not.toBe(other);
    expect((await usage(user.id)).map((row) => row.usedSeconds)).toEqual([420]);

    await ctx.db.$transaction(async (tx) => {
      await tx.job.update({ where: { id: other }, data: { status: "error" } });
      await transcribePipeline.onFailure(
        { userId: user.id, periodStart: new Date().toISOString() } as never,
        { code: "job_failed", message: "x" },
        { jobId: other, userId: user.id, tx, job: null as never },
      );
    });
    const again = await Promise.all(Array.from({ length: 5 }, () => startJob(user.id, "bbbbbbbbbbb")));
    expect(new Set(again).size).toBe(1);
    expect(again[0]).not.toBe(other);
    expect((await usage(user.id)).map((row) => row.usedSeconds)).toEqual([420]);
  });

  it("concurrent submissions over the allowance: each is refused with 402, nothing is charged or left behind", async () => {
    const user = await createUser(ctx.db);
    await recordCharge(user.id, 700);
    // 300 s does not fit in the 200 s left: every concurrent answer is the same 402, nothing is charged.
    const answers = await Promise.allSettled(Array.from({ length: 4 }, () => startJob(user.id)));
    for (const answer of answers) {
      expect(answer.status).toBe("rejected");
      expect((answer as PromiseRejectedResult).reason).toBeInstanceOf(ApiError);
      expect(((answer as PromiseRejectedResult).reason as ApiError).status).toBe(402);
    }
    expect(await ctx.db.job.count({ where: { userId: user.id } })).toBe(0);
    expect(await ctx.db.transcription.count({ where: { userId: user.id } })).toBe(0);
    expect((await usage(user.id)).map((row) => row.usedSeconds)).toEqual([700]);
  });
});

describe("a reservation is settled and refunded in its own period", () => {
  const novemberEnd = new Date("2026-11-30T23:59:00Z");
  const decemberStart = new Date("2026-12-01T00:05:00Z");
  const november = new Date("2026-11-01T00:00:00Z");
  const december = new Date("2026-12-01T00:00:00Z");

  it("reserved on 30 November, settled and refunded in December: November's usage moves, December's does not", async () => {
    const user = await createUser(ctx.db);
    vi.useFakeTimers({ toFake: ["Date"], now: novemberEnd });
    const long = await startJob(user.id, "aaaaaaaaaaa");
    const short = await startJob(user.id, "bbbbbbbbbbb");
    expect(await usage(user.id)).toEqual([{ periodStart: november, usedSeconds: 420 }]);
    expect(await ctx.db.job.findUnique({ where: { id: long } })).toMatchObject({
      periodStart: november,
      reservedSecs: 300,
    });

    vi.setSystemTime(decemberStart);
    await recordCharge(user.id, 50); // December's own usage
    // The measured audio is longer (+60 s) for one job, shorter (−20 s) for the other: both in November.
    const settle = (jobId: string, seconds: number) =>
      ctx.db.$transaction((tx) => reservation.settleReservation(tx, jobId, user.id, seconds, december));
    expect(await settle(long, 360)).toBe(true);
    expect(await settle(short, 100)).toBe(true);
    expect(await usage(user.id)).toEqual([
      { periodStart: november, usedSeconds: 460 },
      { periodStart: december, usedSeconds: 50 },
    ]);
    // Settling again to the same figure (a re-run step) changes nothing.
    expect(await settle(long, 360)).toBe(true);

    // The long job fails: its whole (settled) reservation goes back to November.
    await ctx.db.$transaction(async (tx) => {
      const job = await tx.job.update({ where: { id: long }, data: { status: "error" } });
      await transcribePipeline.onFailure(
        { userId: user.id, periodStart: december.toISOString() } as never,
        { code: "job_failed", message: "x" },
        { jobId: long, userId: user.id, tx, job },
      );
    });
    expect(await usage(user.id)).toEqual([
      { periodStart: november, usedSeconds: 100 },
      { periodStart: december, usedSeconds: 50 },
    ]);
    expect(await ctx.db.job.findUnique({ where: { id: long } })).toMatchObject({ reservedSecs: 0 });
  });

  it("a settle that does not fit in the allowance changes nothing", async () => {
    const user = await createUser(ctx.db);
    const jobId = await startJob(user.id, "aaaaaaaaaaa");
    await recordCharge(user.id, 500);
    const period = (await ctx.db.job.findUnique({ where: { id: jobId } }))!.periodStart!;
    expect(await ctx.db.$transaction((tx) => reservation.settleReservation(tx, jobId, user.id, 500, period))).toBe(
      false,
    );
    expect((await usage(user.id)).map((row) => row.usedSeconds)).toEqual([800]);
    expect(await ctx.db.job.findUnique({ where: { id: jobId } })).toMatchObject({ reservedSecs: 300 });
  });
});
