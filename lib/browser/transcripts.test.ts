import { describe, expect, it } from "vitest";
import { parseSourceUrl } from "@/lib/sources";
import { errorMessage } from "@/lib/browser/api";
import {
  captionKindLabel,
  formatMinutes,
  canonicalSourceUrl,
  formatClock,
  historyApiSearch,
  historySearch,
  parseHistoryParams,
  cuedSrc,
  episodeAudio,
  playerFor,
  playMessages,
  seekMessages,
  transcribeHref,
} from "@/lib/browser/transcripts";

describe("canonicalSourceUrl", () => {
  const items: [platform: string, videoId: string][] = [
    ["youtube", "dQw4w9WgXcQ"],
    ["x", "1785701153231093968"],
    ["tiktok", "6718335390845095173"],
    ["vimeo", "76979871"],
    ["instagram", "C8xYz12AbCd"],
    ["facebook", "1234567890123456"],
    ["rednote", "64f1a2b3c4d5e6f708192a3b"],
  ];
  it.each(items)("%s %s is the URL the API canonicalises to the same item", (platform, videoId) => {
    const url = canonicalSourceUrl(platform, videoId)!;
    expect(parseSourceUrl(url)).toEqual({ platform, videoId, canonicalUrl: url });
  });

  it("has no link for uploads, podcasts or an unknown platform", () => {
    expect(canonicalSourceUrl("upload", "abc")).toBeNull();
    expect(canonicalSourceUrl("podcast", "0123456789abcdef")).toBeNull();
    expect(canonicalSourceUrl(null, "abc")).toBeNull();
  });

  it("links history entries to the Transcribe page", () => {
    expect(transcribeHref("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "pt-BR")).toBe(
      "/dashboard?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DdQw4w9WgXcQ&lang=pt-BR",
    );
    expect(transcribeHref("https://vimeo.com/1", null)).toBe("/dashboard?url=https%3A%2F%2Fvimeo.com%2F1");
  });
});

describe("history query string", () => {
  it("round-trips, leaving defaults out", () => {
    const params = parseHistoryParams(
      new URLSearchParams("q=abc&platform=tiktok&state=in_progress&sort=total_seconds&order=asc&page=3"),
    );
    expect(params).toEqual({
      q: "abc",
      platform: "tiktok",
      state: "in_progress",
      sort: "total_seconds",
      order: "asc",
      page: 3,
    });
    expect(historySearch(params)).toBe("q=abc&platform=tiktok&state=in_progress&sort=total_seconds&order=asc&page=3");
    expect(historySearch(parseHistoryParams(new URLSearchParams("")))).toBe("");
  });

  it("ignores values the API would reject", () => {
    const params = parseHistoryParams(new URLSearchParams("platform=myspace&state=nope&sort=title&order=up&page=-2"));
    expect(historySearch(params)).toBe("");
  });

  it("asks the API for the page as limit and offset", () => {
    const params = parseHistoryParams(new URLSearchParams("q=%20ab%20&page=2"));
    expect(Object.fromEntries(new URLSearchParams(historyApiSearch(params)))).toEqual({
      limit: "20",
      offset: "20",
      sort: "created_at",
      order: "desc",
      q: "ab",
    });
  });
});

describe("players", () => {
  it("embeds YouTube without cookies and seeks it over the IFrame API protocol", () => {
    const player = playerFor({
      platform: "youtube",
      video_id: "dQw4w9WgXcQ",
      source_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    });
    expect(player).toEqual({
      kind: "youtube",
      src: "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?enablejsapi=1",
      origin: "https://www.youtube-nocookie.com",
    });
    expect(seekMessages("youtube", 12.5).map((m) => JSON.parse(m))).toEqual([
      { event: "command", func: "seekTo", args: [12.5, true] },
      { event: "command", func: "playVideo", args: [] },
    ]);
  });

  it("embeds Vimeo, keeping an unlisted video's hash", () => {
    expect(
      playerFor({ platform: "vimeo", video_id: "76979871", source_url: "https://vimeo.com/76979871/8272103f6e" })?.src,
    ).toBe("https://player.vimeo.com/video/76979871?h=8272103f6e");
    expect(seekMessages("vimeo", 3).map((m) => JSON.parse(m))).toEqual([
      { method: "setCurrentTime", value: 3 },
      { method: "play" },
    ]);
    expect(seekMessages("vimeo", 3, false).map((m) => JSON.parse(m))).toEqual([{ method: "setCurrentTime", value: 3 }]);
    expect(playMessages("vimeo", false).map((m) => JSON.parse(m))).toEqual([{ method: "pause" }]);
    expect(playMessages("youtube", false).map((m) => JSON.parse(m))).toEqual([
      { event: "command", func: "pauseVideo", args: [] },
    ]);
  });

  it("has no player for the other platforms", () => {
    expect(playerFor({ platform: "tiktok", video_id: "1", source_url: "https://www.tiktok.com/@/video/1" })).toBeNull();
  });

  it("plays a podcast episode's enclosure in an audio element, nothing else", () => {
    const audio = "https://traffic.example.com/show/603.mp3?source=rss";
    expect(episodeAudio({ platform: "podcast", source_url: audio })).toBe(audio);
    expect(episodeAudio({ platform: "podcast", source_url: "javascript:alert(1)" })).toBeNull();
    expect(episodeAudio({ platform: "upload", source_url: "upload:abc/file.mp3" })).toBeNull();
    expect(episodeAudio({ platform: "youtube", source_url: "https://www.youtube.com/watch?v=x" })).toBeNull();
  });
});

describe("display", () => {
  it("formats clock times", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(75.9)).toBe("1:15");
    expect(formatClock(3725)).toBe("1:02:05");
  });

  it("shows the API's detail, or the first validation message", () => {
    expect(errorMessage(402, { detail: "Not enough allowance.", code: "allowance_exhausted" })).toBe(
      "Not enough allowance.",
    );
    expect(
      errorMessage(422, {
        detail: [{ loc: ["body", "lang"], msg: "String should match pattern", type: "string_pattern_mismatch" }],
      }),
    ).toBe("The language: string should match pattern");
    expect(
      errorMessage(422, {
        detail: [
          {
            loc: ["body", "lang"],
            msg: "Value error, must be a language tag such as en, de or pt-BR",
            type: "value_error",
          },
        ],
      }),
    ).toBe("The language must be a language tag such as en, de or pt-BR");
    expect(
      errorMessage(422, {
        detail: [
          {
            loc: ["body", "url"],
            msg: "Value error, this link is not supported. Supported sources are YouTube.",
            type: "value_error",
          },
        ],
      }),
    ).toBe("This link is not supported. Supported sources are YouTube.");
    expect(
      errorMessage(422, {
        detail: [{ loc: ["body"], msg: "exactly one of url, upload or audio must be given", type: "value_error" }],
      }),
    ).toBe("Exactly one of url, upload or audio must be given");
    expect(errorMessage(500, null)).toBe("Request failed (500)");
  });
});

describe("captionKindLabel", () => {
  it("names where the text came from: the platform's kind of captions, a podcast's own file, or recognition", () => {
    expect(captionKindLabel({ platform: "youtube", source: "captions", caption_kind: "auto" })).toBe("Auto-generated");
    expect(captionKindLabel({ platform: "podcast", source: "captions", caption_kind: null })).toBe(
      "The publisher's own",
    );
    expect(captionKindLabel({ platform: "podcast", source: "asr", caption_kind: null })).toBe("Speech recognition");
    expect(captionKindLabel({ platform: "vimeo", source: "captions", caption_kind: null })).toBe("Captions");
  });
});

describe("formatMinutes", () => {
  it("rounds up to the minute, and says hours as people do from an hour up", () => {
    expect(formatMinutes(0)).toBe("0 min");
    expect(formatMinutes(90)).toBe("2 min");
    expect(formatMinutes(900)).toBe("15 min");
    expect(formatMinutes(4283)).toBe("1 h 12 min");
    expect(formatMinutes(36_000)).toBe("10 h");
  });
});

describe("cuedSrc", () => {
  const youtube = playerFor({
    platform: "youtube",
    video_id: "abc",
    source_url: "https://www.youtube.com/watch?v=abc",
  })!;
  const vimeo = playerFor({ platform: "vimeo", video_id: "76979871", source_url: "https://vimeo.com/76979871" })!;
  it("is playerFor's address with startAt: whole seconds, YouTube's start=, Vimeo's #t=", () => {
    expect(cuedSrc(youtube, 891.44)).toBe(
      playerFor({ platform: "youtube", video_id: "abc", source_url: "" }, 891.44)!.src,
    );
    expect(cuedSrc(vimeo, 12.9)).toBe("https://player.vimeo.com/video/76979871#t=12s");
  });
  it("replaces an earlier cue and leaves the start alone for 0", () => {
    expect(cuedSrc({ ...youtube, src: cuedSrc(youtube, 5) }, 9)).toBe(cuedSrc(youtube, 9));
    expect(cuedSrc({ ...vimeo, src: cuedSrc(vimeo, 5) }, 9)).toBe(cuedSrc(vimeo, 9));
    expect(cuedSrc(youtube, 0.4)).toBe(youtube.src);
  });
});
