import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { parse } from "yaml";

import { test } from "./fixtures";
import { devLogin, randomEmail, recordSecrets } from "./helpers";
import { WATCH_URL } from "./pages-world";
import { DESTINATIONS_POLL_MS } from "../lib/browser/destinations";

// The dashboard's Exports page against the built app, whose own delivery runner delivers each new transcript: to a
// folder under the app's EXPORT_FOLDER_ROOT, and to a Notion whose address nothing answers (test/apps.ts), so the
// page says why that one fails. Then History's export downloads the same transcript as a zip of notes, and so does
// the export of a search's moments.

test("add a folder and a Notion destination; a new transcript is delivered to one and the other says why it fails; History exports notes", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The page's clock, to move it to the next poll once the deliveries are in (time flows as usual until then).
  await page.clock.install();
  await devLogin(page, randomEmail("exports"), "/dashboard/exports");
  await expect(page.getByRole("heading", { name: "Exports", level: 1 })).toBeVisible();
  await expect(page.getByText("No destinations yet.")).toBeVisible();

  const form = page.getByRole("form", { name: "Add a destination" });
  await form.getByRole("radio", { name: "A folder on this server" }).check();
  await form.getByLabel("Name (optional)").fill("Vault");
  await form.getByLabel("Folder, under the server's export folder").fill("vault/Transcripts");
  await form.getByRole("button", { name: "Add destination" }).click();
  const destinations = page.getByTestId("export-destination");
  await expect(destinations).toHaveCount(1);

  const token = `ntn_${Date.now().toString(36)}e2etoken`;
  recordSecrets(token);
  await form.getByRole("radio", { name: "A Notion database" }).check();
  await form.getByLabel("Notion database id").fill("0f3c7a1e98b24c559d1a2b7e6f0c4d11");
  await form.getByLabel(/Integration token/).fill(token);
  await form.getByRole("button", { name: "Add destination" }).click();
  await expect(destinations).toHaveCount(2);
  // The token is not kept in the form, and the page shows only that one is stored.
  await expect(form.getByLabel(/Integration token/)).toHaveValue("");
  await expect(page.locator("body")).not.toContainText(token);
  const vault = destinations.filter({ hasText: "Vault" });
  const notion = destinations.filter({ hasText: "Notion database 0f3c7a1e-98b2-4c55-9d1a-2b7e6f0c4d11" });
  await expect(vault).toContainText("Folder vault/Transcripts");
  await expect(vault).toContainText("Nothing delivered yet");

  // A new transcript in the library: each destination gets it once, on its own.
  expect((await page.request.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } })).status()).toBe(200);
  const states = async () => {
    const { destinations: listed } = (await (await page.request.get("/v1/exports/destinations")).json()) as {
      destinations: { kind: string; state: string; deliveries: { delivered: number } }[];
    };
    return listed.map((d) => `${d.kind} ${d.state} ${d.deliveries.delivered}`).sort();
  };
  await expect.poll(states, { timeout: 30_000 }).toEqual(["folder ok 1", "notion failing 0"]);
  await page.clock.fastForward(DESTINATIONS_POLL_MS);
  await expect(vault.getByTestId("destination-deliveries")).toContainText("1 delivered");
  await expect(vault).toContainText("Delivering");
  await expect(notion).toContainText("Failing");
  await expect(notion.getByTestId("destination-problem")).toContainText(
    /Failing since .+: Notion could not be reached/,
  );
  await expect(notion.getByTestId("destination-problem")).toContainText("Tried again at");

  // Removing one leaves the other.
  await notion.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog", { name: "Remove destination" }).getByRole("button", { name: "Remove" }).click();
  await expect(destinations).toHaveCount(1);
  await expect(destinations).toContainText("Vault");

  // By hand: History's export, the whole library as a zip of Markdown notes.
  await page.goto("/dashboard/history");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export all as notes (.zip)" }).click();
  const saved = await (await download).path();
  const files = unzipSync(new Uint8Array(readFileSync(saved)));
  const names = Object.keys(files);
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/\.md$/);
  const note = strFromU8(files[names[0]!]!);
  const [, frontMatter] = /^---\n([\s\S]*?)---\n/.exec(note) ?? [];
  expect(parse(frontMatter!)).toMatchObject({ source: WATCH_URL, language: "en" });

  // A search's moments: a word the transcript says finds it, and its export is the same note.
  const body = note.slice(note.indexOf("---\n", 4) + 4).replace(/\[[^\]]*\]\([^)]*\)|^#.*$/gm, "");
  const said = body.match(/\b[a-z]{6,}\b/)?.[0];
  expect(said).toBeTruthy();
  await page.goto(`/dashboard/history?q=${said}`);
  await expect(page.getByTestId("history-moment").first()).toBeVisible();
  const momentsDownload = page.waitForEvent("download");
  await page.getByTestId("moments-export-notes").click();
  const fromMoments = unzipSync(new Uint8Array(readFileSync(await (await momentsDownload).path())));
  expect(Object.keys(fromMoments)).toEqual(names);
  await expect(page.getByRole("status").filter({ hasText: "1 note in" })).toBeVisible();
});
