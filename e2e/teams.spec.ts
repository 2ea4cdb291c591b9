import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

import { hydrating, test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { SERVER_LOGS_DIR } from "../test/secrets";
import { FAKE_IDS } from "../test/fakes/youtube/ids";

// The dashboard's Team page and the invitation page against the built app: a person makes a team and invites
// another by e-mail; the link (written to the server log, as sign-in links are without a mail server) lets the
// invited person join; the owner makes them an admin, and the activity says so.

/** The newest invitation link the app logged for `email`. */
function invitationLink(email: string): string | null {
  const log = readFileSync(path.join(SERVER_LOGS_DIR, `app-app-${process.env.E2E_PORT ?? 3123}.log`), "utf8");
  let found: string | null = null;
  for (const line of log.split("\n")) {
    if (!line.includes("team invitation link")) continue;
    try {
      const entry = JSON.parse(line) as { email?: string; url?: string };
      if (entry.email === email && entry.url) found = entry.url;
    } catch {
      // another process's line
    }
  }
  return found;
}

test("make a team, invite by e-mail, join through the link, change the member's role", async ({ page, browser }) => {
  const owner = randomEmail("team-owner");
  const invited = randomEmail("team-member");
  await devLogin(page, owner, "/dashboard/team");
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(page.getByText("You are in no team yet.")).toBeVisible();
  await page.getByLabel("Name").fill("Evening Newsroom");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const detail = page.getByTestId("team-detail");
  await expect(detail.getByRole("heading", { name: "Evening Newsroom" })).toBeVisible();
  await expect(detail).toContainText("your role: Owner");

  await page.getByLabel("E-mail").fill(invited);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByRole("list", { name: "Pending invitations" })).toContainText(invited);
  await expect.poll(() => invitationLink(invited)).not.toBeNull();
  const link = new URL(invitationLink(invited)!);

  const other = await browser.newContext();
  const guest = hydrating(await other.newPage());
  await devLogin(guest, invited);
  await guest.goto(link.pathname);
  await expect(guest.getByText("You are invited to Evening Newsroom as member.")).toBeVisible();
  await guest.getByRole("button", { name: "Join the team" }).click();
  await expect(guest.getByTestId("invitation-accepted")).toContainText("You joined Evening Newsroom as member.");
  await guest.getByRole("button", { name: "Open the team" }).click();
  await expect(guest.getByTestId("team-detail")).toContainText("your role: Member");
  // The team it opens on is the workspace the line above the page names, and the page says what happened.
  await expect(guest.getByTestId("workspace-current")).toContainText("You are in the team Evening Newsroom as member");
  await expect(guest.getByTestId("team-joined")).toContainText("You joined Evening Newsroom as member");
  // A member sees the members, not the invitations or the activity.
  await expect(guest.getByRole("heading", { name: "Invitations" })).toHaveCount(0);
  await expect(guest.getByRole("heading", { name: "Activity" })).toHaveCount(0);
  // The link worked once.
  await guest.goto(link.pathname);
  await expect(guest.getByText("This invitation link was used already")).toBeVisible();
  await other.close();

  await page.reload();
  const member = page.getByTestId("team-member").filter({ hasText: invited });
  await member.getByLabel(`Role of ${invited}`).selectOption("admin");
  await expect(page.getByTestId("audit-event").first()).toContainText(
    `${owner} changed the role of ${invited} (member → admin)`,
  );
  await expect(page.getByRole("list", { name: "Usage by member" })).toContainText(invited);
});

test("a viewer opens a team transcript from History and is offered nothing its role cannot do", async ({
  page,
  browser,
  baseURL,
}) => {
  const headers = { origin: baseURL! };
  const owner = randomEmail("team-owner");
  const viewer = randomEmail("team-viewer");
  await devLogin(page, owner);
  const team = (await (await page.request.post("/v1/teams", { data: { name: "Reading Room" }, headers })).json()) as {
    id: string;
  };
  await page.request.put("/v1/me/workspace", { data: { workspace_id: team.id }, headers });
  const url = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
  expect((await page.request.post("/v1/transcript", { data: { url, lang: "en" }, headers })).status()).toBe(200);
  await page.request.post(`/v1/teams/${team.id}/invitations`, { data: { email: viewer, role: "viewer" }, headers });
  await expect.poll(() => invitationLink(viewer)).not.toBeNull();
  const link = new URL(invitationLink(viewer)!);

  // Follows the link before signing in, signs in, and is back on it.
  const other = await browser.newContext();
  const guest = hydrating(await other.newPage());
  await guest.goto(link.pathname);
  await expect(guest).toHaveURL(/\/signin\?callbackUrl=%2Finvite%2F/);
  await guest.getByLabel(/development login/i).fill(viewer);
  await guest.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(guest.getByText("You are invited to Reading Room as viewer.")).toBeVisible();
  await guest.getByRole("button", { name: "Join the team" }).click();
  await expect(guest.getByTestId("invitation-accepted")).toBeVisible();
  await guest.request.put("/v1/me/workspace", { data: { workspace_id: team.id }, headers });

  await guest.goto("/dashboard/history");
  const row = guest.getByTestId("history-row").first();
  await expect(row.getByTestId("history-added-by")).toHaveText(`Added by ${owner}`);
  await expect(row.getByTestId("history-delete")).toHaveCount(0);
  await expect(row.getByTestId("publish-button")).toHaveCount(0);
  await row.getByTestId("history-video-link").click();
  await expect(guest).toHaveURL(/\/dashboard\?transcript=[^&]+$/);
  await expect(guest.getByTestId("transcript-viewer")).toBeVisible();
  await expect(guest).toHaveTitle(/^How Bread Rises.* · Verbatim$/);
  // A page to read, not the Transcribe page: no word of what a viewer cannot start.
  await expect(guest.getByTestId("role-notice")).toHaveCount(0);
  for (const control of ["publish-button", "edit-transcript", "paragraph-edit"])
    await expect(guest.getByTestId(control)).toHaveCount(0);
  await expect(guest.getByLabel("Video or audio link")).toHaveCount(0);
  // A link to the Transcribe page opens what the library holds, by a read.
  await guest.goto(`/dashboard?${new URLSearchParams({ url, lang: "en" })}`);
  await expect(guest).toHaveURL(/\/dashboard\?transcript=[^&]+$/);
  await expect(guest.getByTestId("transcript-viewer")).toBeVisible();
  await guest.goto("/dashboard");
  await expect(guest.getByTestId("role-notice")).toContainText("you are a viewer");
  await other.close();

  // Deleting the team asks for its name, says it is done, and the workspace line above the page follows at once.
  await page.goto("/dashboard/team");
  await expect(page.getByTestId("workspace-current")).toContainText("Reading Room");
  await page.getByRole("button", { name: "Delete the team" }).click();
  const confirm = page.getByRole("button", { name: "Delete for good" });
  await expect(confirm).toBeDisabled();
  await page.getByTestId("confirm-typed").fill("Reading Room");
  await confirm.click();
  await expect(page.getByTestId("team-deleted")).toContainText("Reading Room was deleted");
  await expect(page.getByText("You are in no team yet.")).toBeVisible();
  await expect(page.getByTestId("workspace-current")).toHaveText("You are in your own account.");
});

test("an owner makes a team key, sees its secret once, the key works and is revoked; the trail downloads as CSV", async ({
  page,
  baseURL,
}) => {
  const headers = { origin: baseURL! };
  await page.setViewportSize({ width: 390, height: 844 });
  await devLogin(page, randomEmail("team-keys"));
  await page.request.post("/v1/teams", { data: { name: "Key Desk" }, headers });
  await page.goto("/dashboard/team");
  const section = page.getByTestId("team-keys");
  await expect(section).toContainText("No team keys yet.");
  await section.getByText("Make a team key").click();
  await section.getByLabel("Name").fill("Newsroom CMS");
  await section.getByLabel(/^Transcribe/).check();
  await section.getByRole("button", { name: "Make key" }).click();
  const secret = (await section.getByTestId("new-team-key").textContent())!;
  expect(secret).toMatch(/^vbt_tk_/);
  await expect(section.getByTestId("copy-team-key")).toBeFocused();
  const row = section.getByTestId("team-key").filter({ hasText: "Newsroom CMS" });
  await expect(row).toContainText("read, transcribe");
  await expect(row).toContainText("never used");
  // On a phone nothing runs past the screen's edge, the secret included.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const key = { authorization: `Bearer ${secret}` };
  expect((await page.request.get("/v1/me/transcriptions", { headers: key })).status()).toBe(200);
  await section.getByRole("button", { name: "Done" }).click();
  await expect(section.getByTestId("new-team-key")).toHaveCount(0);
  await page.reload();
  await expect(row).toContainText("last used");
  await expect(page.locator("body")).not.toContainText(secret);

  await row.getByRole("button", { name: "Revoke Newsroom CMS" }).click();
  await page.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(section).toContainText("No team keys yet.");
  expect((await page.request.get("/v1/me/transcriptions", { headers: key })).status()).toBe(401);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const csv = readFileSync((await (await download).path())!, "utf8");
  expect(csv.split("\r\n")[0]).toBe("id,at,actor_id,actor_label,action,target,data");
  expect(csv).toContain("key.created");
  expect(csv).toContain("key.revoked");
});
