import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { startFakePodcastServer, type FakePodcastServer } from "../test/fakes/podcasts/server";

// A line of a podcast episode whose own transcript names its speakers (the Podcasting 2.0 example SRT, served by
// the podcast host fake), corrected in the dashboard's editor: the line keeps its speaker in the dashboard's
// reading view, in the API's answer and on the public page.

let feeds: FakePodcastServer;

test.beforeAll(async () => {
  feeds = await startFakePodcastServer();
});

test.afterAll(async () => {
  await feeds?.close();
});

type Json = { segments: { text: string; speaker?: string }[] };

test("a line corrected in the editor keeps its speaker, in the dashboard and on the public page", async ({ page }) => {
  const audio = `${feeds.origin}/ex/e2e-speakers-1.mp3`;
  feeds.live.set(
    "/live/e2e-speakers.xml",
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Podcasting Q and A</title>
<item><title>Ten things we wish we knew</title><guid>e2e-speakers-1</guid><podcast:transcript url="${feeds.origin}/ex/e2e-speakers-1/transcript.srt" type="application/x-subrip"/><enclosure url="${audio}" type="audio/mpeg" length="1000"/></item>
</channel></rss>`,
  );
  await devLogin(page, randomEmail("editor-speakers"));
  expect(
    (
      await page.request.post("/v1/podcast/resolve", { data: { url: `${feeds.origin}/live/e2e-speakers.xml` } })
    ).status(),
  ).toBe(200);
  const made = await page.request.post("/v1/transcript", { data: { url: audio, lang: "en" } });
  expect(made.status()).toBe(200);
  const { id, segments: before } = (await made.json()) as { id: string } & Json;
  expect(before[0]!.speaker).toBe("Travis");

  await page.goto(`/dashboard?transcript=${id}`);
  // The corrected line opens the first paragraph, under its speaker's name (a line without one would stand alone).
  const opening = page.getByTestId("paragraph").first();
  await expect(opening.getByTestId("speaker")).toHaveText("Travis:");
  await page.getByTestId("edit-transcript").click();
  const first = page.getByTestId("editor-lines").locator("textarea").first();
  await first.click();
  await first.press("Control+End");
  await first.pressSequentially(" truly");
  await first.press("Control+Enter");
  await expect(page.getByTestId("editor-status")).toContainText("Saved");

  const after = (await (await page.request.get(`/v1/transcripts/${id}`)).json()) as Json;
  expect(after.segments[0]!.text).toBe(`${before[0]!.text} truly`);
  expect(after.segments.map((s) => s.speaker)).toEqual(before.map((s) => s.speaker));

  await page.goto(`/dashboard?transcript=${id}`);
  await expect(page.getByTestId("transcript-edited")).toBeVisible();
  await expect(opening).toContainText("truly");
  await expect(opening.getByTestId("speaker")).toHaveText("Travis:");

  const published = await page.request.post("/v1/publish", { data: { url: audio, lang: "en" } });
  const { slug } = (await published.json()) as { slug: string };
  await page.goto(`/t/${slug}`);
  await expect(opening).toContainText("truly");
  await expect(opening.getByTestId("speaker")).toHaveText("Travis:");
});
