// The local runner's claim, fair between accounts (store.ts claimJob), against real PostgreSQL: one account's long
// queue (a batch's items) and another account's single job. Claims are made one by one here, each finished before
// the next where a runner with one slot would, so the order is the claim's alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { claimJob, completeJob, databaseNowMs, msUntilNextDue, type Lease } from "@/lib/jobs/store";

let database: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.teardown();
});

const LEASE_MS = 60_000;

/** Queued jobs of `userId`, due in the order given (each a millisecond after the last), named by `names`. */
async function queue(userId: string, names: string[], from: number): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [i, name] of names.entries()) {
    const job = await database.db.job.create({
      data: { userId, input: { pipeline: "test", context: { name } }, runAt: new Date(from + i) },
    });
    ids.set(job.id, name);
  }
  return ids;
}

async function claim(owner: string, options: { newcomersOnly?: boolean } = {}) {
  const job = await claimJob(database.db, owner, LEASE_MS, options);
  if (!job) throw new Error("nothing to claim");
  const lease: Lease = { owner, attempts: job.attempts, leaseMs: LEASE_MS };
  return { job, finish: () => completeJob(database.db, job, lease) };
}

async function clearQueue() {
  await database.db.job.deleteMany({});
}

/** An empty queue, then a batch's three items and, a second later, another account's single link: their names. */
async function batchAndSingle(): Promise<Map<string, string>> {
  await clearQueue();
  const [batch, single] = [(await createUser(database.db)).id, (await createUser(database.db)).id];
  const start = Date.now() - 60_000;
  return new Map([
    ...(await queue(batch, ["item 1", "item 2", "item 3"], start)),
    ...(await queue(single, ["single link"], start + 1_000)),
  ]);
}

describe("claimJob between accounts", () => {
  it("runs another account's job in the next free slot, before the rest of one account's long queue", async () => {
    await clearQueue();
    const batch = (await createUser(database.db)).id;
    const single = (await createUser(database.db)).id;
    const start = Date.now() - 60_000;
    const names = new Map([
      ...(await queue(batch, ["item 1", "item 2", "item 3", "item 4", "item 5"], start)),
      // Queued last, long after the batch's items.
      ...(await queue(single, ["single link"], start + 1_000)),
    ]);
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { job, finish } = await claim("one-slot");
      order.push(names.get(job.id)!);
      expect(await finish()).toBe(true);
    }
    expect(order).toEqual(["item 1", "single link", "item 2", "item 3", "item 4", "item 5"]);
  });

  it("gives a free slot to the account with fewer jobs running, whatever was queued first", async () => {
    const names = await batchAndSingle();
    // Two slots: the batch's first item holds one; the other goes to the single link, not to item 2.
    const first = await claim("two-slots");
    const second = await claim("two-slots");
    expect([names.get(first.job.id), names.get(second.job.id)]).toEqual(["item 1", "single link"]);
    await first.finish();
    await second.finish();
  });

  it("serves the account served least recently first, and keeps due order within an account", async () => {
    await clearQueue();
    const [a, b, c] = [
      (await createUser(database.db)).id,
      (await createUser(database.db)).id,
      (await createUser(database.db)).id,
    ];
    const start = Date.now() - 60_000;
    const names = new Map([
      ...(await queue(a, ["a1", "a2"], start)),
      ...(await queue(b, ["b1", "b2"], start + 10)),
      ...(await queue(c, ["c1"], start + 20)),
    ]);
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { job, finish } = await claim("one-slot");
      order.push(names.get(job.id)!);
      await finish();
    }
    expect(order).toEqual(["a1", "b1", "c1", "a2", "b2"]);
  });

  it("gives the slot kept for newcomers only to an account with nothing running", async () => {
    const names = await batchAndSingle();
    const first = await claim("kept-slot");
    expect(names.get(first.job.id)).toBe("item 1");
    const kept = await claim("kept-slot", { newcomersOnly: true });
    expect(names.get(kept.job.id)).toBe("single link");
    // Only the busy account's items are left: none of them takes the kept slot, even once the single link ended.
    await kept.finish();
    expect(await claimJob(database.db, "kept-slot", LEASE_MS, { newcomersOnly: true })).toBeNull();
    await first.finish();
    // With nothing of its own running, the busy account is a newcomer too.
    const next = await claim("kept-slot", { newcomersOnly: true });
    expect(names.get(next.job.id)).toBe("item 2");
    await next.finish();
  });
});

// What the lease loop asks once a claim found nothing, by the database's clock: a job that fell due after that
// claim looked (the claim missed it) is due now, not forgotten until the poll; one due before it (a job the claim
// passed over) arms no timer that would fire again at once.
describe("msUntilNextDue from the claim's look", () => {
  it("times a job that fell due since the claim looked, and not one due before", async () => {
    await clearQueue();
    const userId = (await createUser(database.db)).id;
    const lookedAt = await databaseNowMs(database.db);
    await database.db.job.create({
      data: { userId, input: { pipeline: "test", context: {} }, runAt: new Date(lookedAt + 5) },
    });
    // Read after the job fell due: no look back this process measures could say it was missed.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await msUntilNextDue(database.db, lookedAt)).toBe(0);
    expect(await msUntilNextDue(database.db, lookedAt + 10)).toBeNull();
  });
});
