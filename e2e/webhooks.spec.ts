import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail, recordSecrets } from "./helpers";
import { startWebhookReceiver, type Receiver } from "../test/webhook-receiver";

// The dashboard's Webhooks page against the built app, whose own delivery runner sends the events to a receiver
// in the test process (127.0.0.1 is allowed, over http, by OUTBOUND_ALLOW_PRIVATE_HOSTS in playwright.config.ts)
// that verifies each one with the `standardwebhooks` library and the secret the page showed.

let receiver: Receiver;

test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

test.afterAll(async () => {
  await receiver?.close();
});

test("add an endpoint, send a test event, see it delivered, send it again; a 410 disables the endpoint", async ({
  page,
}) => {
  await devLogin(page, randomEmail("webhooks"), "/dashboard/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No endpoints yet.")).toBeVisible();

  await page.getByLabel("Endpoint URL (https)").fill(`${receiver.origin}/e2e`);
  await page.getByRole("checkbox", { name: /Import finished/ }).uncheck();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  recordSecrets(secret);
  receiver.secrets.set("/e2e", secret);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

  const endpoint = page.getByTestId("webhook-endpoint");
  await expect(endpoint).toHaveCount(1);
  await expect(endpoint).toContainText("transcript.completed, transcript.failed");
  await expect(endpoint.getByText("Enabled")).toBeVisible();

  await endpoint.getByRole("button", { name: "Send a test event" }).click();
  await receiver.waitFor("the test event", () => receiver.forPath("/e2e").length >= 1, 20_000);
  expect(receiver.forPath("/e2e")[0]!.payload?.type).toBe("webhook.test");
  const row = endpoint.getByTestId("webhook-delivery");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Delivered (200)", { timeout: 10_000 });

  // Send again: the same webhook-id; this time the receiver answers 410, which disables the endpoint.
  receiver.respond("/e2e", (n) => (n >= 2 ? 410 : 200));
  await row.getByRole("button", { name: "Send again" }).click();
  await receiver.waitFor("the redelivery", () => receiver.forPath("/e2e").length >= 2, 20_000);
  const [first, second] = receiver.forPath("/e2e");
  expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
  await page.reload();
  await expect(endpoint.getByText("Disabled")).toBeVisible({ timeout: 10_000 });
  await expect(endpoint.getByRole("status")).toContainText("410");
  await expect(endpoint.getByRole("button", { name: "Send a test event" })).toBeDisabled();
});
