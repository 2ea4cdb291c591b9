import { afterEach, beforeEach, expect, inject, test } from "vitest";
import { anonymous, signIn, type APIRequestContext } from "./http";
import { ancestorsOfText, hides } from "../html-ancestry";
import { randomEmail } from "../emails";
import { FAKE_IDS } from "../fakes/youtube/ids";

// A public transcript page is whole in its first HTML: what a reader without JavaScript gets (a text browser,
// a reader mode, a link preview) is the transcript itself, not a loading notice with the text parked in a
// hidden element for a script to swap in. Its first render and the cached copy, and the no-JavaScript search.

const baseURL = inject("appOrigin");
let request: APIRequestContext;
beforeEach(async () => {
  request = await anonymous(baseURL);
});
afterEach(() => request.dispose());

/** HTML escapes as React writes text. */
const escaped = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");

test("/t/{slug} and its search serve the transcript's text outside any hidden element, with no loading fallback", async () => {
  const me = await signIn(baseURL, randomEmail("public-html"));
  const url = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
  expect((await me.post("/v1/transcript", { data: { url, lang: "en" } })).status()).toBe(200);
  const published = await me.post("/v1/publish", { data: { url, lang: "en" } });
  expect(published.status()).toBe(200);
  const { slug } = (await published.json()) as { slug: string };
  const { segments, title } = (await (await request.get(`/v1/public/${slug}`)).json()) as {
    segments: { text: string }[];
    title: string;
  };
  // A line from the middle and the last: the whole text is there, not only the first screen of it.
  const middle = segments[Math.floor(segments.length / 2)]!.text;
  const lines = [middle, segments.at(-1)!.text].map(escaped);
  // The no-JavaScript search, for a word of the middle line: that line is shown, the word marked.
  const word = middle.split(/[^\p{L}]+/u).reduce((a, b) => (b.length > a.length ? b : a), "");

  // The first visit renders the page; the second is served from the cache.
  for (const [path, needles] of [
    [`/t/${slug}`, [escaped(title), ...lines]],
    [`/t/${slug}`, [escaped(title), ...lines]],
    [`/t/${slug}?${new URLSearchParams({ q: word })}`, [escaped(title), escaped(word)]],
  ] as const) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    expect(html, path).not.toMatch(/Loading the transcript|data-testid="transcript-loading"/);
    if (path.includes("?")) expect(html, path).toMatch(new RegExp(`<mark[^>]*>${word}</mark>`, "i"));
    for (const needle of needles) {
      const ancestors = ancestorsOfText(html, needle);
      expect(ancestors, `${path}: "${needle}" in the page's text`).not.toBeNull();
      expect(ancestors!.filter(hides), `${path}: "${needle}" inside a hidden element`).toEqual([]);
      expect(
        ancestors!.map((element) => element.tag),
        path,
      ).toContain("main");
    }
  }
  await me.dispose();
});
