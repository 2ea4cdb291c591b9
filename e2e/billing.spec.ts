import Stripe from "stripe";
import { expect, type Page } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { formatDate } from "../lib/browser/billing";
import { seedVerbatimCatalog } from "../test/fakes/stripe/catalog";
import { startFakeStripe, type FakeStripe } from "../test/fakes/stripe/server";

// The Billing page twice: on the app with its embedded defaults (billing off), and on the second app
// playwright.config.ts starts with billing on, against a fake Stripe run here, in the test process, so the
// test can also act as Stripe (a failed renewal) and read what the app did there.

const billingOrigin = process.env.E2E_BILLING_ORIGIN!;
const fakeStripePort = Number(process.env.E2E_FAKE_STRIPE_PORT);
const webhookSecret = process.env.E2E_STRIPE_WEBHOOK_SECRET!;

const plan = (page: Page, tier: "free" | "pro" | "ultra") => page.getByTestId(`plan-${tier}`);

test.describe("billing off (embedded defaults)", () => {
  test("the page says billing is off, shows the free allowance, and lists no plan (none can be bought here)", async ({
    page,
  }) => {
    await devLogin(page, randomEmail("billing-off"), "/dashboard/billing");
    await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Billing" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("billing-off")).toContainText("Billing is off on this server");
    await expect(page.getByTestId("billing-off")).not.toContainText("STRIPE_");
    await expect(page.getByTestId("current-tier")).toHaveText("Free");
    await expect(page.getByTestId("usage-text")).toHaveText("0 minutes of 15 minutes used");
    await expect(page.getByRole("progressbar", { name: "Allowance used" })).toHaveAttribute("aria-valuenow", "0");
    // Billing off: plans that cannot be bought here, and their prices, are not listed.
    await expect(page.getByRole("region", { name: "Plans" })).toHaveCount(0);
    await expect(plan(page, "pro")).toHaveCount(0);
    await expect(page.getByText("$9/month")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Manage billing|Refresh from Stripe/ })).toHaveCount(0);
  });
});

test.describe("billing with Stripe", () => {
  let fake: FakeStripe;
  let stripe: Stripe;

  test.beforeAll(async () => {
    fake = await startFakeStripe({
      port: fakeStripePort,
      webhook: { url: `${billingOrigin}/v1/webhooks/billing`, secret: webhookSecret, auto: true },
    });
    seedVerbatimCatalog(fake);
    stripe = new Stripe(fake.apiKey, {
      host: fake.host,
      port: fake.port,
      protocol: fake.protocol,
      maxNetworkRetries: 0,
    });
  });
  test.afterAll(async () => fake?.close());

  /** The customer's one subscription, as the fake Stripe has it. */
  async function subscriptionOf(email: string): Promise<Stripe.Subscription> {
    const customers = await stripe.customers.list({ email, limit: 1 });
    const list = await stripe.subscriptions.list({ customer: customers.data[0].id, status: "all" });
    expect(list.data).toHaveLength(1);
    return list.data[0];
  }

  test("upgrade through Checkout: the signed webhook makes the user pro; change, schedule, cancel, resume; a failed payment; the portal", async ({
    page,
  }) => {
    const email = randomEmail("billing");
    const reconciles: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/v1/me/subscription/reconcile") reconciles.push(request.url());
    });
    await devLogin(page, email, `${billingOrigin}/dashboard/billing`);

    // Live prices and the promotion code from Stripe.
    await expect(page.getByTestId("billing-off")).toHaveCount(0);
    await expect(page.getByTestId("current-tier")).toHaveText("Free");
    await expect(plan(page, "pro").getByTestId("plan-price")).toHaveText("$9/month");
    await expect(plan(page, "ultra").getByTestId("plan-price")).toHaveText("$29/month");
    await expect(plan(page, "pro").getByTestId("plan-discount")).toHaveText("Launch: 20% off with code LAUNCH20");
    await expect(plan(page, "free").getByRole("button")).toHaveCount(0);

    // Upgrade → Stripe Checkout (the fake's hosted page) → pay with the code → back on the billing page.
    await plan(page, "pro").getByRole("button", { name: "Upgrade to Pro" }).click();
    await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${fakeStripePort}/c/pay/cs_`));
    await expect(page.getByTestId("amount")).toHaveText("USD 9.00");
    await page.getByLabel("Promotion code").fill("LAUNCH20");
    await page.getByRole("button", { name: "Pay" }).click();

    await expect(page).toHaveURL(new RegExp(`^${billingOrigin}/dashboard/billing\\?checkout=success&session_id=cs_`));
    await expect(page.getByTestId("checkout-banner")).toHaveText("Thank you! You are on Pro now.");
    await expect(page.getByTestId("current-tier")).toHaveText("Pro");
    await expect(page.getByTestId("usage-text")).toHaveText("0 minutes of 10 hours used");
    let subscription = await subscriptionOf(email);
    const periodEnd = formatDate(new Date(subscription.items.data[0].current_period_end * 1000).toISOString());
    await expect(page.getByTestId("period-end")).toHaveText(`Renews on ${periodEnd}`);
    // The webhook did it: the page never had to ask Stripe itself.
    expect(reconciles).toEqual([]);
    const [firstInvoice] = (await stripe.invoices.list({ subscription: subscription.id })).data;
    expect(firstInvoice).toMatchObject({ status: "paid", total: 720 });
    // What was shown survives a reload (it is stored, not just in the page).
    await page.goto(`${billingOrigin}/dashboard/billing`);
    await expect(page.getByTestId("current-tier")).toHaveText("Pro");
    await expect(plan(page, "pro")).toHaveAttribute("aria-current", "true");

    // Upgrade to Ultra at once, after a confirmation.
    await plan(page, "ultra").getByRole("button", { name: "Upgrade to Ultra" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Confirm plan change" });
    await expect(confirm).toContainText("prorated difference");
    await confirm.getByRole("button", { name: "Upgrade now" }).click();
    await expect(page.getByTestId("current-tier")).toHaveText("Ultra");
    await expect(page.getByTestId("usage-text")).toHaveText("0 minutes of 50 hours used");
    await expect(confirm).toHaveCount(0);
    subscription = await subscriptionOf(email);
    expect(subscription.items.data[0].price.lookup_key).toBe("verbatim_ultra");

    // A downgrade is scheduled for the period end, and undone.
    await plan(page, "pro").getByRole("button", { name: "Switch to Pro" }).click();
    await confirm.getByRole("button", { name: "Schedule the switch" }).click();
    await expect(page.getByTestId("pending-notice")).toContainText(
      `Switches to Pro on ${periodEnd}. You keep Ultra until then.`,
    );
    await expect(plan(page, "pro")).toContainText("Scheduled");
    await expect(page.getByTestId("current-tier")).toHaveText("Ultra");
    expect((await subscriptionOf(email)).schedule).not.toBeNull();
    await page.getByTestId("pending-notice").getByRole("button", { name: "Keep Ultra" }).click();
    await expect(page.getByTestId("pending-notice")).toHaveCount(0);
    expect((await subscriptionOf(email)).schedule).toBeNull();

    // Cancel at the period end (the tier is kept), then resume.
    await plan(page, "free").getByRole("button", { name: "Cancel plan" }).click();
    await confirm.getByRole("button", { name: "Cancel plan" }).click();
    await expect(page.getByTestId("cancel-notice")).toContainText(
      `Your Ultra plan is canceled and ends on ${periodEnd}.`,
    );
    await expect(page.getByTestId("current-tier")).toHaveText("Ultra");
    await expect(page.getByTestId("period-end")).toHaveText(`Resets on ${periodEnd}`);
    expect((await subscriptionOf(email)).cancel_at_period_end).toBe(true);
    await page.getByRole("button", { name: "Resume Ultra" }).click();
    await expect(page.getByTestId("cancel-notice")).toHaveCount(0);
    expect((await subscriptionOf(email)).cancel_at_period_end).toBe(false);

    // Stripe fails the next renewal and tells the app by webhook: the page warns.
    const failed = fake.failPayment(subscription.id);
    const deliveries = await fake.deliver(failed.events);
    expect(deliveries.map((d) => d.status)).toEqual(failed.events.map(() => 200));
    await page.reload();
    await expect(page.getByTestId("payment-warning")).toContainText("Your last payment failed");
    await expect(page.getByTestId("current-tier")).toHaveText("Ultra");

    // Update payment method → the customer portal → back.
    await page.getByTestId("payment-warning").getByRole("button", { name: "Update payment method" }).click();
    await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${fakeStripePort}/p/session/`));
    await expect(page.locator("body")).toContainText(subscription.id);
    await page.getByRole("link", { name: /return|back/i }).click();
    await expect(page).toHaveURL(`${billingOrigin}/dashboard/billing`);
    await expect(page.getByTestId("current-tier")).toHaveText("Ultra");
  });

  test("a canceled Checkout changes nothing", async ({ page }) => {
    await devLogin(page, randomEmail("billing-cancel"), `${billingOrigin}/dashboard/billing`);
    await plan(page, "ultra").getByRole("button", { name: "Upgrade to Ultra" }).click();
    await expect(page).toHaveURL(new RegExp(`/c/pay/cs_`));
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(`${billingOrigin}/dashboard/billing?checkout=canceled`);
    await expect(page.getByTestId("checkout-banner")).toHaveText("Checkout was canceled. Nothing was charged.");
    await expect(page.getByTestId("current-tier")).toHaveText("Free");
    await expect(page.getByTestId("usage-text")).toHaveText("0 minutes of 15 minutes used");
  });
});
