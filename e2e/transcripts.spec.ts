import { readFile } from "node:fs/promises";
import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";

// The app under test talks to the YouTube fake (playwright.config.ts starts both); its captioned
// video has manual English captions whose first cue is "[MUSIC]".
const videoId: string = FAKE_IDS.captioned;
const firstText = "[MUSIC]";

test("transcribe a YouTube link, download it as SRT, find it in the history", async ({ page }) => {
  const id = videoId;
  const watchUrl = `https://www.youtube.com/watch?v=${id}`;
  // The embedded player, replaced by a page that lists the postMessage commands it receives.
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><ol id="received"></ol><script>addEventListener("message", (event) => {
        const item = document.createElement("li"); item.textContent = event.data; document.getElementById("received").append(item);
      });</script>`,
    }),
  );
  await devLogin(page, randomEmail("transcribe"));

  await page.getByLabel("Video or audio link").fill(watchUrl);
  await expect(page.getByLabel("Language")).toHaveValue("en");
  await page.getByRole("button", { name: "Transcribe" }).click();

  const viewer = page.getByTestId("transcript-viewer");
  await expect(viewer).toBeVisible();
  await expect(page.getByTestId("transcript-platform")).toHaveText("YouTube");
  await expect(page.getByTestId("transcript-lang")).toHaveText("en");
  await expect(page.getByTestId("transcript-player")).toHaveAttribute(
    "src",
    `https://www.youtube-nocookie.com/embed/${id}?enablejsapi=1`,
  );
  await expect(page.getByRole("tab", { name: "Transcript" })).toHaveAttribute("aria-selected", "true");
  // The reading view: paragraphs, each with its timestamp; the first cue is the first segment.
  const firstParagraph = page.getByTestId("paragraph").first();
  await expect(firstParagraph.getByRole("link", { name: /^Play from 0:0\d$/ })).toBeVisible();
  await expect(page.locator(".reading p > span[id]").first()).toHaveText(firstText);

  // A timestamp seeks the player over the IFrame API protocol, then plays.
  await firstParagraph.getByRole("link", { name: /^Play from / }).click();
  // (The viewer also asks the player to report its position, the widget protocol's "listening": not a command.)
  const received = page
    .frameLocator('[data-testid="transcript-player"]')
    .locator("#received li")
    .filter({ hasText: '"event":"command"' });
  await expect(received).toHaveCount(2);
  expect(JSON.parse((await received.nth(0).textContent())!)).toMatchObject({
    event: "command",
    func: "seekTo",
    args: [expect.any(Number), true],
  });
  expect(JSON.parse((await received.nth(1).textContent())!)).toEqual({ event: "command", func: "playVideo", args: [] });
  // The request is in the address, so a reload shows the same transcript.
  await expect(page).toHaveURL(/\/dashboard\?url=https%3A%2F%2Fwww\.youtube\.com%2Fwatch%3Fv%3D/);

  // SRT tab: fetched as its own format, then downloaded as a file.
  await page.getByRole("tab", { name: "SRT" }).click();
  await expect(page.getByRole("tab", { name: "SRT" })).toHaveAttribute("aria-selected", "true");
  const srtPanel = page.getByRole("tabpanel", { name: "SRT" });
  await expect(srtPanel.getByTestId("transcript-content")).toContainText("-->");
  await expect(srtPanel).toContainText(firstText);

  const downloadLink = page.getByRole("link", { name: "Download .srt" });
  await expect(downloadLink).toHaveAttribute("href", /\/v1\/transcripts\/[^/]+\/download\?format=srt$/);
  const [download] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
  // Named after the title, made safe as a file name (the colon goes).
  const title = (await page.getByTestId("transcript-title").textContent())!.trim();
  expect(title).toContain(":");
  expect(download.suggestedFilename()).toBe(`${title.replace(/[:"]/g, " ").replace(/\s+/g, " ").trim()} (en).srt`);
  const srt = await readFile((await download.path())!, "utf8");
  expect(srt.startsWith("1\n00:00:")).toBe(true);
  expect(srt).toContain("-->");
  expect(srt).toContain(firstText);

  // Arrow keys move between the format tabs.
  await page.getByRole("tab", { name: "SRT" }).press("ArrowRight");
  await expect(page.getByRole("tab", { name: "VTT" })).toBeFocused();
  await expect(page.getByRole("tabpanel", { name: "VTT" }).getByTestId("transcript-content")).toContainText("WEBVTT");
  await page.getByText("Other formats").click();
  await expect(page.getByRole("link", { name: "Download .vtt" })).toBeVisible();

  // History lists it; the search box finds it by part of the id, and a miss shows the empty state.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "History" }).click();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  const row = page.getByTestId("history-row").filter({ hasText: id });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("YouTube");
  await expect(row.getByTestId("history-state-badge")).toHaveText("done");
  await expect(page.getByTestId("history-range")).toHaveText("1–1 of 1");

  // Column headers sort, a second click reverses; both live in the address.
  await page.getByRole("button", { name: "Duration" }).click();
  await expect(page).toHaveURL(/\/dashboard\/history\?sort=total_seconds$/);
  await page.getByRole("button", { name: "Duration" }).click();
  await expect(page).toHaveURL(/\/dashboard\/history\?sort=total_seconds&order=asc$/);
  await expect(page.getByRole("columnheader", { name: "Duration" })).toHaveAttribute("aria-sort", "ascending");

  const search = page.getByLabel("Search titles, channels, video IDs and what was said");
  const part = id.slice(1, Math.min(id.length, 7));
  await search.fill(part);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${part}(&|$)`));
  await expect(page.getByTestId("history-row")).toHaveCount(1);
  await expect(page.getByTestId("history-row")).toContainText(id);

  // Only words searched, no filter set: the empty list says what was not found, not "these filters".
  await search.fill("zz-no-such-video-zz");
  await expect(page.getByTestId("history-empty")).toHaveText(
    /^No title, channel or video ID contains “zz-no-such-video-zz”( either)?\.$/,
  );
  await expect(page.getByTestId("history-row")).toHaveCount(0);

  // The same box searches what was said: a moment opens the viewer there (player cued, line current).
  await search.fill("bread rises");
  const moment = page.getByTestId("history-moment").first();
  await expect(moment).toContainText("0:05");
  await expect(moment.locator("mark")).toHaveText(["bread", "rises"]);
  // The title holds the words too: both answers are shown, each under its own heading.
  await expect(page.getByTestId("history-list-title")).toHaveText("Titles, channels and video IDs");
  await expect(page.getByTestId("history-row")).toHaveCount(1);
  await moment.click();
  await expect(page).toHaveURL(/\/dashboard\?transcript=[^&]+&t=5\.685$/);
  await expect(page.getByTestId("transcript-player")).toHaveAttribute(
    "src",
    `https://www.youtube-nocookie.com/embed/${id}?enablejsapi=1&start=5`,
  );
  // The moment is marked (and, the player not having played, it is also the cue being played).
  await expect(page.locator(".reading [data-moment]")).toContainText("bread rises");
  await expect(page.locator('.reading [aria-current="true"]')).toContainText("bread rises");
  await page.goBack();
  // Words said but in no title: the list says so (not "nothing matches" under the moments that did), and
  // links to every match in the transcript: the viewer with its find box holding the word, on the first match.
  await search.fill("dough");
  await expect(page.getByTestId("history-empty")).toHaveText(
    "No title, channel or video ID contains “dough”: it was found only in what was said, above.",
  );
  await page.getByTestId("history-moments-all").click();
  await expect(page).toHaveURL(/\/dashboard\?transcript=[^&]+&find=dough$/);
  await expect(page.getByTestId("transcript-search")).toHaveValue("dough");
  await expect(page.getByTestId("search-count")).toHaveText(/^1 of [1-9]\d*$/);
  await expect(page.locator(".reading mark[data-current]")).toHaveText("dough");
  await page.goBack();

  // The title opens the stored transcript by a read.
  await search.fill("");
  await page.getByTestId("history-row").filter({ hasText: id }).getByTestId("history-video-link").click();
  await expect(page).toHaveURL(/\/dashboard\?transcript=[^&]+$/);
  await expect(page.getByTestId("transcript-viewer")).toBeVisible();
  await expect(page.locator(".reading p > span[id]").first()).toHaveText(firstText);
});

test("history: a new user sees the empty state, and filters live in the address", async ({ page }) => {
  await devLogin(page, randomEmail("history"), "/dashboard/history");
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  await expect(page.getByRole("heading", { name: "History" })).toBeVisible();
  await expect(page.getByRole("link", { name: "History" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("history-empty")).toContainText("No transcriptions yet");

  await page.getByLabel("Platform").selectOption("tiktok");
  await expect(page).toHaveURL(/\/dashboard\/history\?platform=tiktok$/);
  await expect(page.getByTestId("history-empty")).toContainText("No transcriptions match these filters.");

  await page.getByLabel("State").selectOption("in_progress");
  await expect(page).toHaveURL(/\/dashboard\/history\?platform=tiktok&state=in_progress$/);

  // Typing is debounced into the address.
  await page.getByLabel("Search titles, channels, video IDs and what was said").fill("abc");
  await expect(page).toHaveURL(/\/dashboard\/history\?q=abc&platform=tiktok&state=in_progress$/);

  // A reload restores every control from the address.
  await page.reload();
  await expect(page.getByLabel("Platform")).toHaveValue("tiktok");
  await expect(page.getByLabel("State")).toHaveValue("in_progress");
  await expect(page.getByLabel("Search titles, channels, video IDs and what was said")).toHaveValue("abc");
  await expect(page.getByTestId("history-empty")).toContainText("No transcriptions match these filters.");

  // Values the API would reject are ignored rather than breaking the page.
  await page.goto("/dashboard/history?platform=myspace&sort=title");
  await expect(page.getByLabel("Platform")).toHaveValue("");
  await expect(page.getByTestId("history-empty")).toContainText("No transcriptions yet");

  await page.getByLabel("Platform").selectOption("vimeo");
  await expect(page).toHaveURL(/\?platform=vimeo$/);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  await expect(page.getByLabel("Platform")).toHaveValue("");
});

test("transcribe: the form shows the plan's usage and says what is wrong with the language", async ({ page }) => {
  await devLogin(page, randomEmail("transcribe-form"));
  await expect(page.getByRole("heading", { name: "Transcribe" })).toBeVisible();
  await expect(page.getByTestId("usage-line")).toContainText(/^Free plan: 0 min of [\d,]+ min used this period/);

  // ?url= submits at once (History links here); a language the API would refuse is said before asking.
  await page.goto(
    `/dashboard?${new URLSearchParams({ url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", lang: "not a language" })}`,
  );
  await expect(page.getByLabel("Video or audio link")).toHaveValue("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  await expect(page.getByLabel("Language")).toHaveValue("not a language");
  await expect(page.getByTestId("transcribe-error")).toHaveText(
    "The language must be a code such as en, de or pt-BR, or auto.",
  );
  await expect(page.getByTestId("transcript-viewer")).toHaveCount(0);
});
