import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chargeSeconds } from "@/lib/usage/charge";
import { calendarMonth } from "@/lib/usage/allowance";
import { ok, startBillingWorld, type BillingCustomer, type BillingWorld } from "@/test/billing";

// The allowance across billing changes: usage charged through the real charge path (chargeSeconds in a
// transaction), read back through GET /v1/me/subscription, while the tier and period come from Stripe's events.

let world: BillingWorld;

beforeAll(async () => {
  world = await startBillingWorld();
});
afterEach(() => world.fake.clearFaults());
afterAll(async () => world?.teardown());

const DAY_SECONDS = 86_400;
const DAY_MS = DAY_SECONDS * 1000;

/** Charges `seconds` the way a transcription does: in a transaction, against the current period. */
const charge = (account: BillingCustomer, seconds: number, now?: Date) =>
  world.db.$transaction((tx) => chargeSeconds(tx, account.user.id, seconds, now));

/** The subscription's billing period at Stripe (on its item, with this API version). */
function stripePeriod(subscriptionId: string): { start: Date; end: Date } {
  const item = (
    world.fake.object(subscriptionId).items as { data: { current_period_start: number; current_period_end: number }[] }
  ).data[0];
  return { start: new Date(item.current_period_start * 1000), end: new Date(item.current_period_end * 1000) };
}

const usageRow = (account: BillingCustomer, periodStart: Date) =>
  world.db.usagePeriod.findUnique({ where: { userId_periodStart: { userId: account.user.id, periodStart } } });

/**
 * Runs `fn` with the fake Stripe's clock a day behind: what it creates meanwhile (the subscription and its
 * first period) dates from yesterday, so a renewal (which starts "now") opens a period of its own.
 */
async function yesterday<T>(fn: () => Promise<T>): Promise<T> {
  const options = world.fake.state.options;
  const clock = options.now;
  options.now = () => clock() - DAY_SECONDS;
  try {
    return await fn();
  } finally {
    options.now = clock;
  }
}

describe("the first paid period", () => {
  it("free usage carries into the first paid period: the limit rises, used stays, the period is Stripe's", async () => {
    const account = await world.customer();
    expect(await charge(account, 600)).toEqual(calendarMonth());
    expect(await charge(account, 400)).toBeNull(); // 1,000 s is over the free 900
    expect(await ok(account.subscription())).toMatchObject({
      tier: "free",
      limit_seconds: 900,
      used_seconds: 600,
      current_period_end: calendarMonth().end.toISOString(),
    });

    const { subscriptionId } = await world.subscribe(account, "pro");
    const period = stripePeriod(subscriptionId);
    expect(await ok(account.subscription())).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      used_seconds: 600,
      current_period_end: period.end.toISOString(),
    });
    expect(await account.row()).toMatchObject({ currentPeriodStart: period.start, currentPeriodEnd: period.end });

    // The next charge lands in the paid period, on top of what was carried.
    expect(await charge(account, 400)).toEqual(period);
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 1000, limit_seconds: 36_000 });
    expect(await usageRow(account, period.start)).toMatchObject({ usedSeconds: 1000, periodEnd: period.end });
  });

  it("an upgrade mid-period (pro → ultra) raises the limit and keeps used and the period", async () => {
    const account = await world.customer();
    const { subscriptionId } = await world.subscribe(account, "pro");
    const period = stripePeriod(subscriptionId);
    expect(await charge(account, 30_000)).toEqual(period);
    expect(await charge(account, 10_000)).toBeNull(); // over pro's 36,000

    const mark = world.fake.events.length;
    const changed = await ok(account.change("ultra"));
    expect(changed).toMatchObject({
      tier: "ultra",
      limit_seconds: 180_000,
      used_seconds: 30_000,
      current_period_end: period.end.toISOString(),
    });
    // The change's own events arriving afterwards change nothing more.
    await world.deliver(world.fake.events.slice(mark));
    expect(await ok(account.subscription())).toMatchObject({
      tier: "ultra",
      limit_seconds: 180_000,
      used_seconds: 30_000,
      current_period_end: period.end.toISOString(),
    });
    expect(stripePeriod(subscriptionId)).toEqual(period);

    expect(await charge(account, 10_000)).toEqual(period);
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 40_000 });
  });
});

describe("the period end", () => {
  it("the renewal resets usage: used 0 in the new period, whose end is Stripe's; charges land there", async () => {
    const account = await world.customer();
    const { subscriptionId } = await yesterday(() => world.subscribe(account, "pro"));
    const first = stripePeriod(subscriptionId);
    expect(await charge(account, 5000)).toEqual(first);
    expect(await ok(account.subscription())).toMatchObject({
      used_seconds: 5000,
      current_period_end: first.end.toISOString(),
    });

    const { events } = world.fake.advancePeriod(subscriptionId);
    await world.deliver(events);
    const second = stripePeriod(subscriptionId);
    expect(second.start.getTime()).toBeGreaterThan(first.start.getTime());
    expect(await ok(account.subscription())).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      used_seconds: 0,
      current_period_end: second.end.toISOString(),
    });
    expect(await account.row()).toMatchObject({ currentPeriodStart: second.start, currentPeriodEnd: second.end });

    expect(await charge(account, 700)).toEqual(second);
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 700 });
    expect(await usageRow(account, second.start)).toMatchObject({ usedSeconds: 700 });
    expect(await usageRow(account, first.start)).toMatchObject({ usedSeconds: 5000 });
  });

  it("usage resets on time when the renewal's webhook has not arrived: the stored period rolls on", async () => {
    const account = await world.customer();
    await world.subscribe(account, "pro");
    // As if the stored period had ended ten days ago, with nothing from Stripe since.
    const stored = await account.row();
    const length = stored!.currentPeriodEnd!.getTime() - stored!.currentPeriodStart!.getTime();
    const end = new Date(Date.now() - 10 * DAY_MS);
    const start = new Date(end.getTime() - length);
    await world.db.subscription.update({
      where: { userId: account.user.id },
      data: { currentPeriodStart: start, currentPeriodEnd: end },
    });
    // Used during that period.
    expect(await charge(account, 30_000, new Date(end.getTime() - DAY_MS))).toEqual({ start, end });
    expect(await usageRow(account, start)).toMatchObject({ usedSeconds: 30_000 });

    const next = { start: end, end: new Date(end.getTime() + length) };
    expect(await ok(account.subscription())).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      used_seconds: 0,
      current_period_end: next.end.toISOString(),
    });
    expect(await charge(account, 20_000)).toEqual(next); // would not fit in the old period
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 20_000 });
    expect(await usageRow(account, start)).toMatchObject({ usedSeconds: 30_000 });
  });

  it("a cancel ends in free at the period end: limit 900, used is the month's free usage, over 900 s refused", async () => {
    const account = await world.customer();
    expect(await charge(account, 600)).toEqual(calendarMonth());
    const { subscriptionId } = await world.subscribe(account, "pro");
    expect(await charge(account, 2000)).toEqual(stripePeriod(subscriptionId));
    expect(await ok(account.subscription())).toMatchObject({ tier: "pro", used_seconds: 2600 });

    expect(await ok(account.cancel())).toMatchObject({ tier: "pro", cancel_at_period_end: true });
    const { events } = world.fake.advancePeriod(subscriptionId);
    const answers = await world.deliver(events);
    expect(answers.map((a) => a.effect)).toContain("subscription.revoked");

    const month = calendarMonth();
    expect(await ok(account.subscription())).toEqual({
      tier: "free",
      limit_seconds: 900,
      used_seconds: 600,
      cancel_at_period_end: false,
      current_period_end: month.end.toISOString(),
      pending_tier: null,
      pending_change_at: null,
      payment_state: null,
      unlimited: false,
    });
    expect(await charge(account, 301)).toBeNull();
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 600 });
    expect(await charge(account, 300)).toEqual(month);
    expect(await charge(account, 1)).toBeNull();
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 900 });
  });

  it("without free usage this month, the downgraded user starts at 0 of 900 (paid usage does not count)", async () => {
    const account = await world.customer();
    const { subscriptionId } = await world.subscribe(account, "ultra");
    expect(await charge(account, 50_000)).toEqual(stripePeriod(subscriptionId));
    expect(await ok(account.cancel())).toMatchObject({ cancel_at_period_end: true });
    await world.deliver(world.fake.advancePeriod(subscriptionId).events);

    expect(await ok(account.subscription())).toMatchObject({
      tier: "free",
      limit_seconds: 900,
      used_seconds: 0,
      current_period_end: calendarMonth().end.toISOString(),
    });
    expect(await charge(account, 901)).toBeNull();
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 0 });
    expect(await charge(account, 900)).toEqual(calendarMonth());
  });

  it("a scheduled downgrade (ultra → pro) applies at the period end: limit 36,000, used 0 in the new period", async () => {
    const account = await world.customer();
    const { subscriptionId } = await yesterday(() => world.subscribe(account, "ultra"));
    const first = stripePeriod(subscriptionId);
    expect(await charge(account, 100_000)).toEqual(first);
    expect(await ok(account.change("pro"))).toMatchObject({
      tier: "ultra",
      limit_seconds: 180_000,
      used_seconds: 100_000,
      pending_tier: "pro",
      pending_change_at: first.end.toISOString(),
    });

    await world.deliver(world.fake.advancePeriod(subscriptionId).events);
    const second = stripePeriod(subscriptionId);
    expect(second.start.getTime()).toBeGreaterThan(first.start.getTime());
    expect(await ok(account.subscription())).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      used_seconds: 0,
      current_period_end: second.end.toISOString(),
      pending_tier: null,
      pending_change_at: null,
    });
    expect(await charge(account, 36_000)).toEqual(second);
    expect(await charge(account, 1)).toBeNull();
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 36_000 });
  });
});

describe("a job's reservation across an upgrade", () => {
  it("reserved on free, upgraded mid-job: settled and refunded in the first paid period that carried it", async () => {
    const { startTranscriptionJob } = await import("@/lib/transcripts/start-transcription-job");
    const { settleReservation } = await import("@/lib/usage/reservation");
    const { transcribePipeline } = await import("@/lib/transcripts/transcribe-pipeline");
    const account = await world.customer();
    const userId = account.user.id;
    const month = calendarMonth();
    const { jobId } = await startTranscriptionJob({
      userId,
      platform: "podcast",
      videoId: "ep-1",
      canonicalUrl: "https://pod.example/ep-1.mp3",
      lang: "en",
      origin: "audio_url",
      title: null,
      estimateSeconds: 300,
    });
    expect(await charge(account, 200)).toEqual(month);
    expect(await ok(account.subscription())).toMatchObject({ tier: "free", used_seconds: 500 });

    const { subscriptionId } = await world.subscribe(account, "pro");
    const paid = stripePeriod(subscriptionId);
    expect(await ok(account.subscription())).toMatchObject({ tier: "pro", used_seconds: 500 });
    const job = await world.db.job.findUnique({ where: { id: jobId } });
    expect(job).toMatchObject({ reservedSecs: 300, periodStart: paid.start });

    // The audio measures 400 s: the extra 100 s land in the paid period, where the reservation now is.
    expect(await world.db.$transaction((tx) => settleReservation(tx, jobId, userId, 400, month.start))).toBe(true);
    expect(await ok(account.subscription())).toMatchObject({ used_seconds: 600 });
    expect(await usageRow(account, month.start)).toMatchObject({ usedSeconds: 500 });

    // The job fails: all 400 s come back in the paid period; what stays is the other 200 s.
    await world.db.$transaction(async (tx) => {
      const failed = await tx.job.update({ where: { id: jobId }, data: { status: "error" } });
      await transcribePipeline.onFailure(
        { userId, periodStart: month.start.toISOString() } as never,
        { code: "job_failed", message: "x" },
        { jobId, userId, tx, job: failed },
      );
    });
    expect(await ok(account.subscription())).toMatchObject({ tier: "pro", used_seconds: 200 });
    expect(await usageRow(account, paid.start)).toMatchObject({ usedSeconds: 200 });
  });
});
