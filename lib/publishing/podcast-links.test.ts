import { beforeAll, describe, expect, it } from "vitest";
import { podcastTranscriptLinks, podcastTranscriptTag } from "@/lib/publishing/podcast-links";

beforeAll(() => {
  process.env.APP_URL = "https://verbatim.example/";
});

describe("the files a podcast feed links to", () => {
  it("are four absolute URLs under the slug, with the tag's type, the language, and rel only on the timed ones", () => {
    expect(podcastTranscriptLinks("grit-abc123", "pt-BR")).toEqual([
      {
        url: "https://verbatim.example/v1/public/grit-abc123/transcript.vtt",
        type: "text/vtt",
        language: "pt-BR",
        rel: "captions",
      },
      {
        url: "https://verbatim.example/v1/public/grit-abc123/transcript.srt",
        type: "application/x-subrip",
        language: "pt-BR",
        rel: "captions",
      },
      {
        url: "https://verbatim.example/v1/public/grit-abc123/transcript.json",
        type: "application/json",
        language: "pt-BR",
        rel: "captions",
      },
      {
        url: "https://verbatim.example/v1/public/grit-abc123/transcript.html",
        type: "text/html",
        language: "pt-BR",
        rel: null,
      },
    ]);
  });

  it("each become a <podcast:transcript> element with escaped attributes", () => {
    const [vtt, , , html] = podcastTranscriptLinks("grit-abc123", "en");
    expect(podcastTranscriptTag(vtt!)).toBe(
      '<podcast:transcript url="https://verbatim.example/v1/public/grit-abc123/transcript.vtt" type="text/vtt" language="en" rel="captions" />',
    );
    expect(podcastTranscriptTag(html!)).toBe(
      '<podcast:transcript url="https://verbatim.example/v1/public/grit-abc123/transcript.html" type="text/html" language="en" />',
    );
    expect(
      podcastTranscriptTag({ url: 'https://x.example/?a=1&b="2"', type: "text/vtt", language: "<en>", rel: null }),
    ).toBe(
      '<podcast:transcript url="https://x.example/?a=1&amp;b=&quot;2&quot;" type="text/vtt" language="&lt;en&gt;" />',
    );
  });
});
