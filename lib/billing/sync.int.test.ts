import pg from "pg";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startBillingWorld, type BillingWorld } from "@/test/billing";

// syncCustomer against a slow Stripe: no transaction (and no advisory lock) is open while Stripe is asked,
// and a sync that read Stripe earlier than the stored state never overwrites it.

let world: BillingWorld;
let sync: typeof import("@/lib/billing/sync");
let config: NonNullable<ReturnType<typeof import("@/lib/billing/stripe").billingConfig>>;
let observer: pg.Client;
let url: string;

beforeAll(async () => {
  world = await startBillingWorld();
  sync = await import("@/lib/billing/sync");
  config = (await import("@/lib/billing/stripe")).billingConfig()!;
  url = (await import("@/lib/env")).env().DATABASE_URL!;
  observer = new pg.Client({ connectionString: url });
  await observer.connect();
});
afterEach(() => world.fake.clearFaults());
afterAll(async () => {
  await observer?.end();
  await world?.teardown();
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

/** Sessions of the test database other than the observer's, with their state. */
async function sessions(): Promise<{ state: string | null; xact_start: Date | null; query: string }[]> {
  const { rows } = await observer.query(
    `SELECT state, xact_start, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return rows;
}

describe("no Stripe call inside a database transaction", () => {
  it("while Stripe holds the subscription read of a webhook, no transaction or lock is open and the same customer is not blocked", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const customerId = (await account.row())!.stripeCustomerId!;
    const mark = world.fake.events.length;
    await world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    const [event] = world.fake.events.slice(mark);

    const stall = world.fake.stall({ method: "GET", path: "/v1/subscriptions" });
    const delivery = world.sendWebhook(event);
    await until(() => stall.held === 1);

    // Nothing of ours is inside a transaction while Stripe is being asked…
    const open = (await sessions()).filter((s) => s.xact_start !== null || s.state === "idle in transaction");
    expect(open).toEqual([]);
    const { rows: locks } = await observer.query(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
    );
    expect(locks[0].n).toBe(0);
    // …so another transaction takes the customer's lock and writes the user's row at once.
    await observer.query("BEGIN");
    await observer.query("SET LOCAL lock_timeout = '2s'");
    await observer.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`billing:${customerId}`]);
    await observer.query(`UPDATE "Subscription" SET "updatedAt" = now() WHERE "userId" = $1`, [account.user.id]);
    await observer.query("COMMIT");

    stall.release();
    const res = await delivery;
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ outcome: "applied", effect: "subscription.canceled" });
    expect(await account.row()).toMatchObject({ tier: "pro", cancelAtPeriodEnd: true });
  });

  it("a sync that read Stripe before the stored state was read changes nothing; its event is still recorded once", async () => {
    const { account, subscriptionId } = await world.subscribed("pro");
    const customerId = (await account.row())!.stripeCustomerId!;

    // A: reads Stripe now (not cancelled), then its answer is slow to come back.
    let arrive!: () => void;
    const late = new Promise<void>((resolve) => (arrive = resolve));
    let read!: () => void;
    const hasRead = new Promise<void>((resolve) => (read = resolve));
    const slow = new Stripe(world.fake.apiKey, {
      host: world.fake.host,
      port: world.fake.port,
      protocol: world.fake.protocol,
      maxNetworkRetries: 0,
    });
    const list = slow.subscriptions.list.bind(slow.subscriptions);
    slow.subscriptions.list = (async (...args: Parameters<typeof list>) => {
      const answer = await list(...args);
      read();
      await late;
      return answer;
    }) as typeof list;
    const a = sync.syncCustomer(slow, config, customerId, {
      event: { id: "evt_stale_read_a", type: "customer.subscription.updated" },
    });
    await hasRead;

    // Meanwhile the customer cancels at Stripe and B (a later read) stores it.
    await world.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    expect(await sync.syncCustomer(world.stripe, config, customerId)).toMatchObject({
      outcome: "applied",
      effect: "subscription.canceled",
    });
    expect(await account.row()).toMatchObject({ cancelAtPeriodEnd: true });

    // A's older read arrives last: the stored state stays B's, A's event is recorded.
    arrive();
    expect(await a).toMatchObject({ outcome: "applied", effect: null });
    expect(await account.row()).toMatchObject({ tier: "pro", cancelAtPeriodEnd: true });
    expect(await world.db.webhookEvent.count({ where: { id: "evt_stale_read_a" } })).toBe(1);
    // A redelivery of A's event is a duplicate, answered without asking Stripe.
    const reads = world.fake.count("GET", "/v1/subscriptions");
    expect(
      await sync.syncCustomer(world.stripe, config, customerId, {
        event: { id: "evt_stale_read_a", type: "customer.subscription.updated" },
      }),
    ).toEqual({ outcome: "duplicate" });
    expect(world.fake.count("GET", "/v1/subscriptions")).toBe(reads);
  });
});
