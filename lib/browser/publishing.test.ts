import { describe, expect, it } from "vitest";
import { isLoopbackUrl, tagParts } from "@/lib/browser/publishing";

describe("feed tags on the Published page", () => {
  it("knows an APP_URL that only this machine reaches", () => {
    for (const url of [
      "http://localhost:3000",
      "http://127.0.0.1:3123/t/x",
      "http://[::1]:3000",
      "http://0.0.0.0:3000",
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of [
      "https://verbatim.example",
      "http://10.0.0.5:3000",
      "https://localhost.example.com",
      "not a url",
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
  });

  it("cuts a tag only between its attributes, and the pieces joined by spaces are the tag", () => {
    const tag =
      '<podcast:transcript url="https://verbatim.example/v1/public/a-talk/transcript.vtt" type="text/vtt" language="en" rel="captions" />';
    const parts = tagParts(tag);
    expect(parts).toEqual([
      "<podcast:transcript",
      'url="https://verbatim.example/v1/public/a-talk/transcript.vtt"',
      'type="text/vtt"',
      'language="en"',
      'rel="captions" />',
    ]);
    expect(parts.join(" ")).toBe(tag);
  });
});
