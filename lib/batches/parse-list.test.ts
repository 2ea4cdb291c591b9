import { describe, expect, it } from "vitest";
import { parseLinkList } from "@/lib/batches/parse-list";

// Real videos' links as people paste them: the Sesame Street clip of test/fixtures/captions (Ye8mB6VsUHw), the
// recorded "Surface Go Review" of the YouTube fake (GJLlxj_dtq8), NASA's post on X and a TikTok of lib/sources'
// tests, and a podcast episode's audio file.
const COOKIE = "https://www.youtube.com/watch?v=Ye8mB6VsUHw";
const SURFACE = "https://youtu.be/GJLlxj_dtq8?si=B_RZg_I-lLaa7UU-";
const NASA = "https://x.com/NASA/status/1785701153231093968";
const TIKTOK = "https://www.tiktok.com/@scout2015/video/6718335390845095173";
const EPISODE = "https://traffic.libsyn.com/secure/changelog/the-changelog-300.mp3";

describe("parseLinkList", () => {
  it("reads one link a line, mixed platforms, blank lines and comments aside, numbering lines as an editor does", () => {
    const text = `${COOKIE}\r\n\r\n# my list\n${SURFACE}\n  ${NASA}  \n${TIKTOK}\n${EPISODE}\n`;
    const { items, links } = parseLinkList(text, 1000);
    expect(links).toBe(5);
    expect(items).toEqual([
      { line: 1, url: COOKIE, status: "queued", note: null },
      { line: 4, url: SURFACE, status: "queued", note: null },
      { line: 5, url: NASA, status: "queued", note: null },
      { line: 6, url: TIKTOK, status: "queued", note: null },
      { line: 7, url: EPISODE, status: "queued", note: null },
    ]);
  });

  it("keeps a duplicate (the same video however written) and a bad line as skipped items with a note", () => {
    const text = [
      COOKIE,
      "https://youtube.com/shorts/Ye8mB6VsUHw?feature=share",
      "https://vimeo.example.com/12345",
      "just some words here",
      "x".repeat(3000) + ".example/",
      SURFACE,
    ].join("\n");
    const { items, links } = parseLinkList(text, 1000);
    expect(links).toBe(6);
    expect(items.map((i) => [i.line, i.status])).toEqual([
      [1, "queued"],
      [2, "skipped"],
      [3, "skipped"],
      [4, "skipped"],
      [5, "skipped"],
      [6, "queued"],
    ]);
    expect(items[1]!.note).toBe("The same link as line 1.");
    expect(items[2]!.note).toMatch(/^Not a link Verbatim can transcribe\. Supported sources are YouTube/);
    expect(items[3]!.note).toBe("No link on this line.");
    expect(items[4]!.note).toMatch(/longer than 2048 characters/);
    // A long line is shown cut, never stored whole.
    expect(items[4]!.url.length).toBeLessThanOrEqual(201);
  });

  it("reads a CSV: its header row aside, the first cell that is a link, quoted cells with commas", () => {
    const csv = [
      "title,url,notes",
      `"C is for Cookie, sung",${COOKIE},classic`,
      `Surface Go;${SURFACE}`,
      `"NASA on X"\t${NASA}`,
      `No link here,,`,
    ].join("\n");
    const { items } = parseLinkList(csv, 1000);
    expect(items.map((i) => [i.line, i.url, i.status])).toEqual([
      [2, COOKIE, "queued"],
      [3, SURFACE, "queued"],
      [4, NASA, "queued"],
      [5, "No link here,,", "skipped"],
    ]);
  });

  it("stops once the list holds more links than a batch takes, and says how many it saw", () => {
    const text = Array.from({ length: 50 }, (_, i) => `https://www.youtube.com/watch?v=${String(i).padStart(11, "a")}`);
    const parsed = parseLinkList(text.join("\n"), 10);
    expect(parsed.links).toBe(11);
    expect(parsed.items).toHaveLength(10);
  });
});
