import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { contrastProblems } from "./contrast";
import { axeScan, devLogin, randomEmail } from "./helpers";

// The dashboard always says which workspace it acts in, and switches between the person's own account and their
// teams: on a phone and a laptop, in both colour schemes. A team is made through the teams API.

test("the workspace switcher: your own account, then a team, on every page, at 390 px and in both schemes", async ({
  page,
  baseURL,
}) => {
  const email = randomEmail("workspaces");
  await page.setViewportSize({ width: 390, height: 844 });
  await devLogin(page, email);
  await expect(page.getByTestId("workspace-current")).toHaveText("You are in your own account.");

  const created = await page.request.post("/v1/teams", {
    data: { name: "Newsroom E2E" },
    headers: { origin: baseURL! },
  });
  expect(created.status()).toBe(201);
  const team = (await created.json()) as { id: string };

  await page.reload();
  await page.getByTestId("workspace-select").selectOption(team.id);
  await expect(page.getByTestId("workspace-current")).toContainText("You are in the team Newsroom E2E as owner.");
  const me = await page.request.get("/v1/me");
  expect(await me.json()).toMatchObject({ email, workspace: { id: team.id, kind: "team", role: "owner" } });

  for (const path of ["/dashboard/history", "/dashboard/keys", "/dashboard/billing"]) {
    await page.goto(path);
    await expect(page.getByTestId("workspace-current")).toContainText("Newsroom E2E");
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const scan = await axeScan(page)
      .include("[data-testid=workspace-switcher]")
      .withRules(["color-contrast"])
      .analyze();
    expect(await contrastProblems(page, `switcher, ${scheme}`, scan)).toEqual([]);
  }

  // Back to the person's own account.
  await page.getByTestId("workspace-select").selectOption({ index: 0 });
  await expect(page.getByTestId("workspace-current")).toHaveText("You are in your own account.");
});
