import { expect } from "@playwright/test";

import { test } from "./fixtures";
import { devLogin, randomEmail } from "./helpers";
import { WATCH_URL } from "./pages-world";

// A moment found by meaning, as a browser shows it: the library's search and Explore mark the line that answers and
// link to its start, and Explore's "why it matched" opens the public page at that line, marked. The fake's captioned
// video; its passage "But the gas only stays if the dough can hold it, … a bit like a balloon." answers the question
// on its fourth line, so a mark or a link that fell back to the passage's first line fails here.

/**
 * Says none of the words of the passage that answers it, nor of any other in the library: a question that says some
 * of them is found by those words too, and marks them (lib/search/some-words.ts), not the answering line.
 */
const QUESTION = "which molecules in wheat bond with each other";
const LINE = "two proteins — glutenin and gliadin — link up.";

test("a moment found by meaning: the library's search and Explore mark and link its line; the public page opens there", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "" }),
  );
  await devLogin(page, randomEmail("meaning"));
  const made = await page.request.post("/v1/transcript", { data: { url: WATCH_URL, lang: "en" } });
  expect(made.status()).toBe(200);
  const id = (await made.json()).id as string;
  const publish = await page.request.post("/v1/publish", { data: { url: WATCH_URL, lang: "en" } });
  expect(publish.status()).toBe(200);
  const { segments } = (await (await page.request.get(`/v1/public/${(await publish.json()).slug}`)).json()) as {
    segments: { start: number; text: string }[];
  };
  const index = segments.findIndex((s) => s.text === LINE);
  expect(index).toBeGreaterThan(0);
  const { start } = segments[index]!;

  // The passages' vectors are stored in the background: the question is answered by meaning once they are.
  await expect
    .poll(
      async () => {
        const found = await page.request.get(`/v1/me/search?${new URLSearchParams({ q: QUESTION })}`);
        return ((await found.json()).results as { matched: string }[]).some((m) => m.matched === "meaning");
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe(true);

  // The library's search: the moment marks the line, and opens the viewer at its start.
  await page.goto(`/dashboard/history?${new URLSearchParams({ q: QUESTION })}`);
  const mine = page.getByTestId("history-moment").filter({ has: page.locator("mark", { hasText: LINE }) });
  await expect(mine).toHaveCount(1);
  await expect(mine.locator("mark")).toHaveText([LINE]);
  await expect(mine.getByTestId("history-moment-meaning")).toBeVisible();
  await expect(mine).toHaveAttribute("href", `/dashboard?${new URLSearchParams({ transcript: id, t: String(start) })}`);

  // Explore: the same line marked; the moment and "why it matched" link to its anchor on a public page of the video
  // (answered once per version of it: other tests may have published this video too, or a correction of it).
  await page.goto(`/explore?${new URLSearchParams({ q: QUESTION })}`);
  // The line's anchor: its start, and its place in that version's segments.
  const anchor = `#t${Math.floor(start)}-\\d+`;
  const moments = page
    .getByTestId("explore-moments")
    .getByRole("listitem")
    .filter({ has: page.locator("mark", { hasText: LINE }) });
  await expect(moments.first()).toBeVisible();
  const at = new RegExp(`^/t/how-bread-rises-[a-z0-9-]+${anchor}$`);
  for (const moment of await moments.all()) {
    await expect(moment.locator("mark")).toHaveText([LINE]);
    await expect(moment.getByTestId("explore-moment")).toHaveAttribute("href", at);
    const near = moment.getByTestId("explore-moment-search");
    await expect(near).toHaveText(new RegExp(`^Near “${QUESTION}”`));
    await expect(near).toHaveAttribute("href", at);
  }
  const why = moments.first().getByTestId("explore-moment-search");
  await why.click();
  await expect(page).toHaveURL(new RegExp(`/t/how-bread-rises-[a-z0-9-]+${anchor}$`));
  await expect(page.locator(".reading [data-moment]")).toHaveText(LINE);
});
