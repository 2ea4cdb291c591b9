import { expect, type Page } from "@playwright/test";

/** A fresh email per test, so tests never see each other's data. */
export function randomEmail(prefix = "e2e"): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Signs in through the sign-in page with the development login (on by default with embedded defaults). */
export async function devLogin(page: Page, email: string, from = "/dashboard") {
  await page.goto(from);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.getByLabel(/development login/i).fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByTestId("user-email")).toHaveText(email);
}
