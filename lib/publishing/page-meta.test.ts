import { describe, expect, it } from "vitest";
import { transcriptJsonLd } from "@/lib/publishing/json-ld";
import { momentHref, pageDescription, pageMetadata, jsonLdHead } from "@/lib/publishing/page-meta";
import type { PublicTranscript } from "@/lib/publishing/schemas";

const transcript: PublicTranscript = {
  id: "t1",
  slug: "a-talk-abcdef",
  url: "https://verbatim.example/t/a-talk-abcdef",
  platform: "youtube",
  video_id: "H14bBuluwB8",
  source_url: "https://www.youtube.com/watch?v=H14bBuluwB8",
  title: "A talk </script><script>alert(1)</script>",
  lang: "en",
  source: "captions",
  caption_kind: "manual",
  duration_seconds: 371,
  format: "json",
  content: null,
  segments: [
    { start: 0, end: 4, text: "When I was 27 years old, I left a very demanding job in management consulting" },
    {
      start: 4,
      end: 9,
      text: "for a job that was even more demanding: teaching. </script> & more words to make this longer than a description",
    },
  ],
  channel: null,
  source_published_at: null,
  chapters: [],
  served_by: null,
  published_at: "2026-11-23T02:00:00.000Z",
  podcast_transcripts: [],
};

describe("public page metadata", () => {
  it("describes the page with the transcript's first words, cut at a word, at most 160 characters", () => {
    const description = pageDescription(transcript);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description.startsWith("When I was 27 years old")).toBe(true);
    expect(description.endsWith("…")).toBe(true);
  });

  it("has Open Graph and Twitter cards with the YouTube thumbnail and the canonical URL", () => {
    const meta = pageMetadata(transcript);
    expect(meta.alternates?.canonical).toBe(transcript.url);
    expect(meta.openGraph).toMatchObject({
      url: transcript.url,
      images: [{ url: "https://i.ytimg.com/vi/H14bBuluwB8/hqdefault.jpg" }],
    });
    expect(meta.twitter).toMatchObject({ card: "summary_large_image" });
    expect(pageMetadata({ ...transcript, platform: "upload", video_id: null, source_url: null }).twitter).toMatchObject(
      { card: "summary" },
    );
  });

  it("writes a VideoObject with the transcript that cannot close its script element", () => {
    const json = transcriptJsonLd(
      jsonLdHead(transcript, "https://www.youtube-nocookie.com/embed/H14bBuluwB8?enablejsapi=1"),
      transcript.segments ?? [],
    );
    expect(json).not.toMatch(/<\/script/i);
    expect(json).not.toContain("<");
    const data = JSON.parse(json) as Record<string, string>;
    expect(data).toMatchObject({
      "@type": "VideoObject",
      name: transcript.title,
      duration: "PT371S",
      uploadDate: transcript.published_at,
      thumbnailUrl: expect.any(String),
    });
    expect(data.transcript).toContain("teaching. </script> & more");
  });

  it("names a podcast's episode and its show, the transcript on the episode's audio", () => {
    const episode: PublicTranscript = {
      ...transcript,
      platform: "podcast",
      video_id: "dfc2f65638e430ac",
      title: "Giant Bombcast 603: Call of Tuesday",
      channel: "The Giant Beastcast",
      source_url: "https://example.com/episodes/603.mp3",
    };
    const data = JSON.parse(transcriptJsonLd(jsonLdHead(episode, null), episode.segments ?? [])) as Record<
      string,
      Record<string, string>
    >;
    expect(data).toMatchObject({
      "@type": "PodcastEpisode",
      name: "Giant Bombcast 603: Call of Tuesday",
      partOfSeries: { "@type": "PodcastSeries", name: "The Giant Beastcast" },
      associatedMedia: { "@type": "AudioObject", contentUrl: episode.source_url, duration: "PT371S" },
    });
    expect(data.associatedMedia.transcript).toContain("teaching.");
    expect(data).not.toHaveProperty("transcript");
  });

  it("gives the series the show's page here when the episode is on a followed show", () => {
    const episode: PublicTranscript = {
      ...transcript,
      platform: "podcast",
      video_id: "dfc2f65638e430ac",
      channel: null,
    };
    const head = jsonLdHead(episode, null, {
      slug: "the-beastcast-a1b2c3",
      title: "The Giant Beastcast",
      episodeDate: new Date("2024-01-03T00:00:00Z"),
    });
    expect(head.datePublished).toBe("2024-01-03T00:00:00.000Z");
    expect(head.partOfSeries).toEqual({
      "@type": "PodcastSeries",
      name: "The Giant Beastcast",
      url: new URL("/s/the-beastcast-a1b2c3", transcript.url).toString(),
    });
    expect(jsonLdHead(episode, null)).not.toHaveProperty("partOfSeries");
  });

  it("links a moment on platforms with time links, nowhere else", () => {
    expect(momentHref(transcript, 75.9)).toBe("https://www.youtube.com/watch?v=H14bBuluwB8&t=75s");
    expect(momentHref({ platform: "vimeo", video_id: "76979871" }, 12)).toBe("https://vimeo.com/76979871#t=12s");
    expect(momentHref({ platform: "upload", video_id: null }, 12)).toBeNull();
    expect(momentHref({ platform: "tiktok", video_id: "7234" }, 12)).toBeNull();
  });
});
