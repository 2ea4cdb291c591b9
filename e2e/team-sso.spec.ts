import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { axeScan, devLogin, randomEmail } from "./helpers";
import { contrastProblems } from "./contrast";

// The Team page's single sign-on settings against the built app, on a phone in the dark. The e2e app has no DNS
// server of its own nor an identity provider: verifying a domain and requiring the provider are covered by the
// integration tests (lib/teams/domains.int.test.ts, lib/auth/sso.int.test.ts).

test("on a phone in the dark (and the light), an owner adds a domain, sees its TXT record, and makes a SCIM token that works", async ({
  page,
  baseURL,
}) => {
  const headers = { origin: baseURL! };
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await devLogin(page, randomEmail("team-sso"));
  const made = await page.request.post("/v1/teams", { data: { name: "Badge Desk" }, headers });
  expect(made.status()).toBe(201);
  const team = (await made.json()) as { id: string };
  await page.goto("/dashboard/team");

  const section = page.getByTestId("team-sso");
  await expect(section.getByRole("heading", { name: "Single sign-on" })).toBeVisible();
  // No identity provider on this server: nothing to require.
  await expect(section.getByTestId("team-require-sso")).toHaveCount(0);

  const domains = section.getByTestId("team-domains");
  await expect(domains).toContainText("No domains yet.");
  await domains.getByLabel("Domain", { exact: true }).fill("Badge-Desk.example.com");
  await domains.getByLabel("Joins as").selectOption({ label: "Viewer" });
  await domains.getByRole("button", { name: "Add domain" }).click();
  const row = domains.getByTestId("team-domain").filter({ hasText: "badge-desk.example.com" });
  await expect(row).toContainText("Not verified yet");
  await expect(row).toContainText("joins as viewer");
  await expect(row.getByTestId("domain-record-name")).toHaveText("_verbatim.badge-desk.example.com");
  const answer = (await (await page.request.get(`/v1/teams/${team.id}/domains`)).json()) as {
    domains: { verification: { value: string } }[];
  };
  await expect(row.getByTestId("domain-record-value")).toHaveText(answer.domains[0].verification.value);

  const scim = section.getByTestId("team-scim");
  await expect(scim.getByTestId("scim-base-url")).toHaveText(/\/scim\/v2$/);
  await expect(scim.getByTestId("scim-token-state")).toContainText("No SCIM token");
  await scim.getByRole("button", { name: "Make a SCIM token" }).click();
  const token = (await scim.getByTestId("new-scim-token").textContent())!;
  expect(token).toMatch(/^vbscim_/);
  await expect(scim.getByTestId("copy-scim-token")).toBeFocused();
  await expect(scim.getByTestId("scim-token-state")).toContainText(token.slice(0, 15));
  const provisioning = await page.request.get("/scim/v2/Users", { headers: { authorization: `Bearer ${token}` } });
  expect(provisioning.status()).toBe(200);
  // Its members now come from the identity provider: no domain is offered to add, here or on the page read again.
  await expect(domains.getByTestId("domains-scim")).toBeVisible();
  await expect(domains.getByRole("button", { name: "Add domain" })).toHaveCount(0);
  await page.reload();
  await expect(domains.getByTestId("domains-scim")).toBeVisible();
  await expect(domains.getByRole("button", { name: "Add domain" })).toHaveCount(0);

  // On a phone nothing runs past the screen's edge, the record and the token included; every text reads.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const scan = await axeScan(page).withRules(["color-contrast"]).analyze();
  expect(await contrastProblems(page, "single sign-on settings, phone, dark", scan)).toEqual([]);
  await page.emulateMedia({ colorScheme: "light" });
  const lightScan = await axeScan(page).withRules(["color-contrast"]).analyze();
  expect(await contrastProblems(page, "single sign-on settings, phone, light", lightScan)).toEqual([]);

  await row.getByRole("button", { name: "Delete badge-desk.example.com" }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(domains).toContainText("No domains yet.");
});
