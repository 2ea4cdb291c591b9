import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingWorld, type BillingWorld } from "@/test/billing";

let world: BillingWorld;
beforeAll(async () => {
  world = await startBillingWorld();
});
afterAll(async () => world?.teardown());

describe("POST /v1/checkout", () => {
  it("creates a subscription-mode session; the signed webhook makes the user pro", async () => {
    const account = await world.customer();
    const res = await account.checkout("pro");
    expect(res.status, res.text).toBe(200);
    const url = new URL((res.json as { url: string }).url);
    expect(url.origin).toBe(world.fake.origin);
    const sessionId = url.pathname.split("/").pop()!;
    const session = world.fake.object(sessionId);
    expect(session).toMatchObject({
      mode: "subscription",
      allow_promotion_codes: true,
      client_reference_id: account.user.id,
    });
    expect(session.success_url).toBe(
      "http://app.test/dashboard/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}",
    );

    const done = world.fake.completeCheckout(sessionId);
    const answers = await world.deliver(done.events);
    expect(answers.some((a) => a.effect === "subscription.updated")).toBe(true);
    const sub = await account.subscription();
    expect(sub.json).toMatchObject({
      tier: "pro",
      limit_seconds: 36_000,
      used_seconds: 0,
      cancel_at_period_end: false,
      pending_tier: null,
      payment_state: "ok",
    });
  });
});
