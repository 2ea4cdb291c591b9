import { expect, type Locator, type Page } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { WATCH_URL } from "./pages-world";

// What only a browser shows of correcting where you read: every box of the editor as tall as its text (a long
// transcript, wide and on a phone), a paragraph of the reading view corrected in place and saved, and any saved
// version opened read-only and restored from the editor.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

interface Segment {
  start: number;
  end: number;
  text: string;
}

async function stubPlayer(page: Page) {
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" }),
  );
}

/** Signs in and transcribes the fake's captioned video: its id and segments. */
async function transcribed(page: Page, prefix: string): Promise<{ id: string; segments: Segment[] }> {
  await stubPlayer(page);
  await devLogin(page, randomEmail(prefix));
  const made = await page.request.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } });
  expect(made.status()).toBe(200);
  return (await made.json()) as { id: string; segments: Segment[] };
}

async function current(page: Page, id: string): Promise<Segment[]> {
  return ((await (await page.request.get(`/v1/transcripts/${id}`)).json()) as { segments: Segment[] }).segments;
}

/** The text areas inside `scope` whose text does not fit (scrolls inside them): none, when each shows it all. */
function clipped(scope: Locator): Promise<number> {
  return scope.evaluate(
    (root) => [...root.querySelectorAll("textarea")].filter((area) => area.scrollHeight > area.clientHeight).length,
  );
}

test("a long transcript: every box of the editor, and a paragraph's box, shows its whole text, wide and on a phone", async ({
  page,
}) => {
  const { id, segments } = await transcribed(page, "grow");
  // Lines of about 200 characters each, spread over the video's time: as many as its length may hold (a save
  // holds at most ten words a second of media, lib/edits/density.ts).
  const end = segments.at(-1)!.end;
  const count = Math.min(142, Math.floor((end * 10) / 32));
  const step = end / count;
  const long = Array.from({ length: count }, (_, i) => ({
    start: Math.round(i * step * 1000) / 1000,
    end: Math.round((i + 1) * step * 1000) / 1000 - 0.001,
    text: `Line ${i + 1}: the baker folds the dough again and again, waits for it to rise overnight in a cool room, and shapes the loaves at dawn before the ovens are hot enough.`,
  }));
  const saved = await page.request.patch(`/v1/transcripts/${id}`, { data: { segments: long } });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.setViewportSize(DESKTOP);
  await page.goto(`/dashboard?transcript=${id}`);
  await page.getByTestId("edit-transcript").click();
  const lines = page.getByTestId("editor-lines");
  await expect(lines.locator("textarea")).toHaveCount(count);
  expect(await clipped(lines)).toBe(0);
  // Typing at the end of a box lands at the end of its text, in view.
  const last = lines.locator("textarea").last();
  await last.click();
  await last.press("Control+End");
  await last.pressSequentially(" Done.");
  await expect(last).toHaveValue(/hot enough\. Done\.$/);
  expect(await clipped(lines)).toBe(0);

  await page.setViewportSize(PHONE);
  await expect.poll(() => clipped(lines)).toBe(0);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("editor-cancel").click();

  // A paragraph corrected in place: its box too holds all of it.
  await page.getByTestId("paragraph-edit").first().click();
  const area = page.getByTestId("paragraph-text");
  await expect(area).toBeFocused();
  await expect(area).toHaveValue(/^Line 1: /);
  expect(await clipped(page.getByTestId("paragraph-editor"))).toBe(0);
});

test("a paragraph corrected in place is saved, and any saved version is opened and restored", async ({ page }) => {
  const { id, segments } = await transcribed(page, "in-place");
  await page.setViewportSize(DESKTOP);
  await page.goto(`/dashboard?transcript=${id}`);
  const paragraphs = page.getByTestId("paragraph");
  await expect(paragraphs.nth(1)).toBeVisible();
  /** The index of the last segment of paragraph `k`, from its last cue's anchor (#t<seconds>-<index>). */
  const lastOf = async (k: number) => {
    const anchor = await paragraphs.nth(k).locator("span[id]").last().getAttribute("id");
    return Number(anchor!.slice(anchor!.lastIndexOf("-") + 1));
  };

  // The second paragraph: a word added at its end goes to its last segment; nothing else changes.
  const second = await lastOf(1);
  await page.getByTestId("paragraph-edit").nth(1).click();
  const area = page.getByTestId("paragraph-text");
  await expect(area).toBeFocused();
  await area.press("Control+End");
  await area.pressSequentially(" indeed");
  await area.press("Control+Enter");
  await expect(page.getByTestId("paragraph-editor")).toHaveCount(0);
  await expect(page.getByTestId("transcript-edited")).toBeVisible();
  await expect(page.getByTestId("reading-view")).toContainText("indeed");
  const afterFirst = await current(page, id);
  expect(afterFirst).toHaveLength(segments.length);
  afterFirst.forEach((segment, i) =>
    expect(segment.text).toBe(i === second ? `${segments[i].text} indeed` : segments[i].text),
  );

  // The first paragraph: Esc leaves without saving, then a second correction is saved with the button.
  await page.getByTestId("paragraph-edit").first().click();
  await area.press("Control+End");
  await area.pressSequentially(" truly");
  page.once("dialog", (dialog) => void dialog.accept());
  await area.press("Escape");
  await expect(page.getByTestId("paragraph-editor")).toHaveCount(0);
  expect(await current(page, id)).toEqual(afterFirst);
  const first = await lastOf(0);
  await page.getByTestId("paragraph-edit").first().click();
  await area.press("Control+End");
  await area.pressSequentially(" truly");
  await page.getByTestId("paragraph-save").click();
  // Saved once the editor closes (as after the first save): the box's own text is in the reading view before that.
  await expect(page.getByTestId("paragraph-editor")).toHaveCount(0);
  await expect(page.getByTestId("reading-view")).toContainText("truly");
  expect((await current(page, id))[first].text).toBe(`${segments[first].text} truly`);

  // The editor lists both saves and the original; the first save opened read-only, then restored.
  await page.getByTestId("edit-transcript").click();
  await page.getByText("Saved versions").click();
  const versions = page.getByTestId("revision");
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText("current");
  await expect(versions.nth(2)).toContainText("Original");
  await versions.nth(1).getByTestId("revision-open").click();
  const view = page.getByTestId("revision-view");
  await expect(view).toContainText("indeed");
  await expect(view).not.toContainText("truly");
  page.once("dialog", (dialog) => void dialog.accept());
  await versions.nth(1).getByTestId("revision-restore").click();
  await expect(page.getByTestId("editor-status")).toContainText("Restored");
  await expect(versions).toHaveCount(4);
  expect(await current(page, id)).toEqual(afterFirst);
  const boxes = page.getByTestId("editor-lines").locator("textarea");
  await expect(boxes.nth(second)).toHaveValue(`${segments[second].text} indeed`);
  await expect(boxes.nth(first)).toHaveValue(segments[first].text);

  // The original, restored the same way (as the newest version).
  await versions.nth(3).getByTestId("revision-open").click();
  await expect(view).not.toContainText("indeed");
  page.once("dialog", (dialog) => void dialog.accept());
  await versions.nth(3).getByTestId("revision-restore").click();
  await expect(versions).toHaveCount(5);
  expect((await current(page, id)).map((s) => s.text)).toEqual(segments.map((s) => s.text));
});
