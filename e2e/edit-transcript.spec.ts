import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { FAKE_IDS } from "../test/fakes/youtube/ids";

// Corrections, what only a browser shows: the viewer's edit mode changes the text in place, saves with the
// keyboard, and a reload shows the author's correction (marked "Edited").

test("edit a transcript: find and replace, Ctrl+Enter saves, a reload shows the correction", async ({ page }) => {
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" }),
  );
  await devLogin(page, randomEmail("edit"));
  await page.getByLabel("Video or audio link").fill(`https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`);
  await page.getByRole("button", { name: "Transcribe" }).click();
  await expect(page.getByTestId("transcript-viewer")).toBeVisible();
  // The reading view's lines: one span per cue inside its paragraph.
  const lines = page.getByTestId("reading-view").locator("p > span[id]");
  await expect(lines.filter({ hasText: "bread" }).first()).toBeVisible();

  const history = (await (await page.request.get("/v1/me/transcriptions")).json()) as {
    transcriptions: { transcript_id: string | null }[];
  };
  const id = history.transcriptions[0]!.transcript_id!;
  type Json = { segments: { start: number; end: number; text: string }[] };
  const before = (await (await page.request.get(`/v1/transcripts/${id}`)).json()) as Json;

  await page.getByTestId("edit-transcript").click();
  const editor = page.getByTestId("transcript-editor");
  await expect(editor).toBeVisible();
  await page.getByTestId("editor-find").fill("bread");
  await expect(page.getByTestId("editor-replace-all")).toContainText(/Replace all \(\d+\)/);
  await page.getByTestId("editor-replace").fill("sourdough");
  await page.getByTestId("editor-replace-all").click();
  // Nothing left to find: every "bread" is now "sourdough".
  await expect(page.getByTestId("editor-replace-all")).toHaveText("Replace all (0)");
  // A line edited in place, then the keyboard: Ctrl+Enter saves.
  const last = editor.locator("textarea").last();
  await last.click();
  await last.press("End");
  await last.pressSequentially(" (edited)");
  // The cue's end, 0.1 s earlier (Alt+Shift+←).
  await last.press("Alt+Shift+ArrowLeft");
  await last.press("Control+Enter");
  await expect(page.getByTestId("editor-status")).toContainText("Saved");
  await expect(page.getByTestId("transcript-edited")).toBeVisible();
  // What changed, word by word, against the original.
  await page.getByText("Changes from the original").click();
  await expect(page.getByTestId("editor-changes").locator("ins", { hasText: "sourdough" }).first()).toBeVisible();
  await expect(page.getByTestId("editor-changes").locator("del", { hasText: "bread" }).first()).toBeVisible();

  const after = (await (await page.request.get(`/v1/transcripts/${id}`)).json()) as Json;
  expect(after.segments.at(-1)!.end).toBeCloseTo(before.segments.at(-1)!.end - 0.1, 3);
  expect(after.segments.at(-1)!.start).toBe(before.segments.at(-1)!.start);
  await page.goto(`/dashboard?transcript=${id}`);
  await expect(page.getByTestId("transcript-edited")).toBeVisible();
  await expect(lines.filter({ hasText: "sourdough" }).first()).toBeVisible();
  await expect(lines.filter({ hasText: "bread" })).toHaveCount(0);
  await expect(lines.last()).toContainText("(edited)");
});
