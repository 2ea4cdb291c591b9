import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import { PLATFORMS, SUPPORTED_PLATFORMS_SENTENCE, isPlatform, parseSourceUrl, type Platform } from "./parse";

type Row = [url: string, platform: Platform, videoId: string, canonicalUrl: string, needsResolve?: true];

const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const positives: Row[] = [
  // YouTube
  ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  ["https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "youtube", "dQw4w9WgXcQ", YT],
  ["http://www.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  ["https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=share", "youtube", "dQw4w9WgXcQ", YT],
  ["https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RDAMVMdQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  ["https://www.youtube.com/watch?feature=youtu.be&v=dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  ["https://www.youtube.com/watch?v=dQw4w9WgXcQ#t=1m", "youtube", "dQw4w9WgXcQ", YT],
  ["https://WWW.YouTube.COM/watch?v=dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  ["https://www.youtube.com./watch?v=dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  ["  https://www.youtube.com/watch?v=dQw4w9WgXcQ  ", "youtube", "dQw4w9WgXcQ", YT],
  ["www.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  ["https://youtu.be/dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  ["https://youtu.be/dQw4w9WgXcQ?si=B_RZg_I-lLaa7UU-&t=10", "youtube", "dQw4w9WgXcQ", YT],
  ["youtu.be/dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ", YT],
  [
    "https://www.youtube.com/shorts/aqz-KE-bpKQ",
    "youtube",
    "aqz-KE-bpKQ",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "https://youtube.com/shorts/aqz-KE-bpKQ?feature=share",
    "youtube",
    "aqz-KE-bpKQ",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "https://www.youtube.com/live/jfKfPfyJRdk?si=abc",
    "youtube",
    "jfKfPfyJRdk",
    "https://www.youtube.com/watch?v=jfKfPfyJRdk",
  ],
  ["https://www.youtube.com/embed/dQw4w9WgXcQ?start=30", "youtube", "dQw4w9WgXcQ", YT],
  ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0", "youtube", "dQw4w9WgXcQ", YT],
  ["https://m.youtube.com/shorts/_-_-_-_-_-_", "youtube", "_-_-_-_-_-_", "https://www.youtube.com/watch?v=_-_-_-_-_-_"],

  // X / Twitter
  [
    "https://x.com/NASA/status/1785701153231093968",
    "x",
    "1785701153231093968",
    "https://x.com/i/status/1785701153231093968",
  ],
  [
    "https://x.com/NASA/status/1785701153231093968?s=46&t=abc",
    "x",
    "1785701153231093968",
    "https://x.com/i/status/1785701153231093968",
  ],
  [
    "https://x.com/NASA/status/1785701153231093968/video/1",
    "x",
    "1785701153231093968",
    "https://x.com/i/status/1785701153231093968",
  ],
  ["https://twitter.com/jack/status/20", "x", "20", "https://x.com/i/status/20"],
  [
    "https://www.twitter.com/user_name/status/1519480761749016577",
    "x",
    "1519480761749016577",
    "https://x.com/i/status/1519480761749016577",
  ],
  [
    "https://mobile.twitter.com/elonmusk/status/1519480761749016577?s=20",
    "x",
    "1519480761749016577",
    "https://x.com/i/status/1519480761749016577",
  ],
  [
    "https://x.com/i/status/1785701153231093968",
    "x",
    "1785701153231093968",
    "https://x.com/i/status/1785701153231093968",
  ],
  [
    "https://twitter.com/i/web/status/1785701153231093968",
    "x",
    "1785701153231093968",
    "https://x.com/i/status/1785701153231093968",
  ],

  // TikTok
  [
    "https://www.tiktok.com/@scout2015/video/6718335390845095173",
    "tiktok",
    "6718335390845095173",
    "https://www.tiktok.com/@/video/6718335390845095173",
  ],
  [
    "https://tiktok.com/@user.name_1/video/7234567890123456789?is_from_webapp=1&sender_device=pc",
    "tiktok",
    "7234567890123456789",
    "https://www.tiktok.com/@/video/7234567890123456789",
  ],
  [
    "https://m.tiktok.com/v/6718335390845095173.html",
    "tiktok",
    "6718335390845095173",
    "https://www.tiktok.com/@/video/6718335390845095173",
  ],
  [
    "https://www.tiktok.com/embed/v2/6718335390845095173",
    "tiktok",
    "6718335390845095173",
    "https://www.tiktok.com/@/video/6718335390845095173",
  ],
  ["https://vm.tiktok.com/ZMeAbCdEf/", "tiktok", "ZMeAbCdEf", "https://vm.tiktok.com/ZMeAbCdEf/", true],
  ["https://vt.tiktok.com/ZSYxyz123", "tiktok", "ZSYxyz123", "https://vt.tiktok.com/ZSYxyz123/", true],
  ["https://www.tiktok.com/t/ZTRabc123/", "tiktok", "ZTRabc123", "https://www.tiktok.com/t/ZTRabc123/", true],

  // Facebook
  [
    "https://www.facebook.com/watch/?v=1234567890123456",
    "facebook",
    "1234567890123456",
    "https://www.facebook.com/watch/?v=1234567890123456",
  ],
  [
    "https://www.facebook.com/watch?v=1234567890123456",
    "facebook",
    "1234567890123456",
    "https://www.facebook.com/watch/?v=1234567890123456",
  ],
  [
    "https://m.facebook.com/watch/?v=1234567890123456&ref=sharing",
    "facebook",
    "1234567890123456",
    "https://www.facebook.com/watch/?v=1234567890123456",
  ],
  [
    "https://web.facebook.com/watch/?v=1234567890123456",
    "facebook",
    "1234567890123456",
    "https://www.facebook.com/watch/?v=1234567890123456",
  ],
  [
    "https://facebook.com/NASA/videos/1234567890123456/",
    "facebook",
    "1234567890123456",
    "https://www.facebook.com/watch/?v=1234567890123456",
  ],
  [
    "https://www.facebook.com/NASA/videos/launch-day-recap/1234567890123456/",
    "facebook",
    "1234567890123456",
    "https://www.facebook.com/watch/?v=1234567890123456",
  ],
  [
    "https://www.facebook.com/reel/987654321098765",
    "facebook",
    "987654321098765",
    "https://www.facebook.com/watch/?v=987654321098765",
  ],
  [
    "https://m.facebook.com/reel/987654321098765/?mibextid=abc",
    "facebook",
    "987654321098765",
    "https://www.facebook.com/watch/?v=987654321098765",
  ],
  [
    "https://www.facebook.com/video.php?v=1234567890123456",
    "facebook",
    "1234567890123456",
    "https://www.facebook.com/watch/?v=1234567890123456",
  ],
  ["https://fb.watch/abcDEF123/", "facebook", "abcDEF123", "https://fb.watch/abcDEF123/", true],
  [
    "https://www.facebook.com/share/v/1AbCdEfGh/",
    "facebook",
    "1AbCdEfGh",
    "https://www.facebook.com/share/v/1AbCdEfGh/",
    true,
  ],
  [
    "https://www.facebook.com/share/r/1AbCdEfGh/",
    "facebook",
    "1AbCdEfGh",
    "https://www.facebook.com/share/r/1AbCdEfGh/",
    true,
  ],

  // Instagram
  ["https://www.instagram.com/p/C8xYz12AbCd/", "instagram", "C8xYz12AbCd", "https://www.instagram.com/p/C8xYz12AbCd/"],
  [
    "https://instagram.com/reel/C8xYz12AbCd/?igsh=MzRlODBiNWFlZA==",
    "instagram",
    "C8xYz12AbCd",
    "https://www.instagram.com/p/C8xYz12AbCd/",
  ],
  [
    "https://www.instagram.com/reels/C8xYz12AbCd/",
    "instagram",
    "C8xYz12AbCd",
    "https://www.instagram.com/p/C8xYz12AbCd/",
  ],
  ["https://www.instagram.com/tv/B_abc-123XY/", "instagram", "B_abc-123XY", "https://www.instagram.com/p/B_abc-123XY/"],
  [
    "https://www.instagram.com/natgeo/p/C8xYz12AbCd/",
    "instagram",
    "C8xYz12AbCd",
    "https://www.instagram.com/p/C8xYz12AbCd/",
  ],
  [
    "https://www.instagram.com/natgeo/reel/C8xYz12AbCd/",
    "instagram",
    "C8xYz12AbCd",
    "https://www.instagram.com/p/C8xYz12AbCd/",
  ],

  // RedNote
  [
    "https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3b",
    "rednote",
    "64f1a2b3c4d5e6f708192a3b",
    "https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3b",
  ],
  [
    "https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3b?xsec_token=ABcd&xsec_source=pc_share",
    "rednote",
    "64f1a2b3c4d5e6f708192a3b",
    "https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3b",
  ],
  [
    "https://xiaohongshu.com/discovery/item/64F1A2B3C4D5E6F708192A3B",
    "rednote",
    "64f1a2b3c4d5e6f708192a3b",
    "https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3b",
  ],
  [
    "https://www.rednote.com/explore/64f1a2b3c4d5e6f708192a3b",
    "rednote",
    "64f1a2b3c4d5e6f708192a3b",
    "https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3b",
  ],
  [
    "https://www.xiaohongshu.com/user/profile/5ff0e6410000000001008400/64f1a2b3c4d5e6f708192a3b",
    "rednote",
    "64f1a2b3c4d5e6f708192a3b",
    "https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3b",
  ],
  ["http://xhslink.com/a/AbCdEf12", "rednote", "AbCdEf12", "https://xhslink.com/a/AbCdEf12", true],
  ["https://xhslink.com/AbCdEf12", "rednote", "AbCdEf12", "https://xhslink.com/AbCdEf12", true],

  // Vimeo
  ["https://vimeo.com/76979871", "vimeo", "76979871", "https://vimeo.com/76979871"],
  ["https://vimeo.com/76979871?share=copy", "vimeo", "76979871", "https://vimeo.com/76979871"],
  ["https://www.vimeo.com/76979871", "vimeo", "76979871", "https://vimeo.com/76979871"],
  ["https://vimeo.com/channels/staffpicks/76979871", "vimeo", "76979871", "https://vimeo.com/76979871"],
  ["https://vimeo.com/groups/shortfilms/videos/76979871", "vimeo", "76979871", "https://vimeo.com/76979871"],
  ["https://vimeo.com/showcase/9876543/video/76979871", "vimeo", "76979871", "https://vimeo.com/76979871"],
  ["https://player.vimeo.com/video/76979871", "vimeo", "76979871", "https://vimeo.com/76979871"],
  [
    "https://player.vimeo.com/video/76979871?h=8272103f6e&badge=0",
    "vimeo",
    "76979871",
    "https://vimeo.com/76979871/8272103f6e",
  ],
  ["https://vimeo.com/76979871/8272103f6e", "vimeo", "76979871", "https://vimeo.com/76979871/8272103f6e"],
];

describe("parseSourceUrl: supported URLs", () => {
  it.each(positives)("%s → %s %s", (url, platform, videoId, canonicalUrl, needsResolve) => {
    const parsed = parseSourceUrl(url);
    expect(parsed).toEqual(
      needsResolve ? { platform, videoId, canonicalUrl, needsResolve: true } : { platform, videoId, canonicalUrl },
    );
    // The canonical URL is itself recognised as the same item.
    expect(parseSourceUrl(canonicalUrl)).toEqual(parsed);
  });

  it("covers every platform a URL can name", () => {
    const seen = new Set(positives.map((r) => r[1]));
    for (const p of PLATFORMS) if (p !== "upload" && p !== "podcast") expect(seen).toContain(p);
  });
});

describe("parseSourceUrl: direct audio and video files are podcasts", () => {
  const hash = (u: string) => createHash("sha256").update(u).digest("hex").slice(0, 16);
  const files = [
    "https://traffic.libsyn.com/secure/myshow/episode-12.mp3",
    "https://cdn.example.org/audio/ep1.M4A?token=abc123&expires=1700000000",
    "http://media.example.com/a.ogg",
    "https://dts.podtrac.com/redirect.mp3/chrt.fm/track/ABC/media.example.com/ep.mp3",
    "https://example.com/show/ep%201.opus",
    "https://files.example.net:8443/x.flac",
    ...[".aac", ".wav", ".oga", ".webm", ".mp4", ".m4b"].map((e) => `https://example.com/media/file${e}`),
  ];
  it.each(files)("%s", (url) => {
    const parsed = parseSourceUrl(url);
    expect(parsed?.platform).toBe("podcast");
    expect(parsed?.canonicalUrl).toBe(new URL(url).href);
    expect(parsed?.videoId).toBe(hash(new URL(url).href));
    expect(parsed?.videoId).toMatch(/^[0-9a-f]{16}$/);
  });

  it("gives one stable id per normalized URL", () => {
    const a = parseSourceUrl("https://Example.com:443/ep.mp3#t=30");
    const b = parseSourceUrl("https://example.com/ep.mp3");
    const c = parseSourceUrl("https://example.com/ep.mp3?v=2");
    expect(a).toEqual(b);
    expect(a?.canonicalUrl).toBe("https://example.com/ep.mp3");
    expect(c?.videoId).not.toBe(a?.videoId);
  });

  it("lets the outbound test hook allow a local fake server", () => {
    expect(parseSourceUrl("http://127.0.0.1:8080/ep.mp3")).toBeNull();
    expect(
      parseSourceUrl("http://127.0.0.1:8080/ep.mp3", { allowPrivateFor: (h) => h === "127.0.0.1" })?.platform,
    ).toBe("podcast");
  });
});

describe("parseSourceUrl: everything else is null", () => {
  const negatives = [
    // not URLs / wrong schemes
    "",
    "   ",
    "hello world",
    "dQw4w9WgXcQ",
    "javascript:alert(document.cookie)",
    "javascript://www.youtube.com/watch?v=dQw4w9WgXcQ%0aalert(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:audio/mpeg;base64,SUQzBAAAAAAA.mp3",
    "file:///etc/passwd",
    "file:///home/me/episode.mp3",
    "ftp://example.com/episode.mp3",
    "gopher://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "vbscript:msgbox",
    // lookalike and other hosts
    "https://youtube.com.evil.com/watch?v=dQw4w9WgXcQ",
    "https://notyoutube.com/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.co/watch?v=dQw4w9WgXcQ",
    "https://youtube.evil.com/watch?v=dQw4w9WgXcQ",
    "https://evil.com/www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://evil.com/?u=https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.com@evil.com/watch?v=dQw4w9WgXcQ",
    "https://user:pass@www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://www.xn--yutube-wqf.com/watch?v=dQw4w9WgXcQ",
    "https://www.yоutube.com/watch?v=dQw4w9WgXcQ", // Cyrillic "о"
    "https://www.youtube.com:8443/watch?v=dQw4w9WgXcQ",
    "https://x.com.evil.com/NASA/status/1785701153231093968",
    "https://fakex.com/NASA/status/1785701153231093968",
    "https://tiktok.com.evil.com/@user/video/6718335390845095173",
    "https://faketiktok.com/@user/video/6718335390845095173",
    "https://vm.tiktok.com.evil.com/ZMeAbCdEf/",
    "https://facebook.com.evil.com/watch/?v=1234567890123456",
    "https://fb.com/watch/?v=1234567890123456",
    "https://instagram.com.evil.com/p/C8xYz12AbCd/",
    "https://vimeo.com.evil.com/76979871",
    "https://xiaohongshu.com.evil.com/explore/64f1a2b3c4d5e6f708192a3b",
    "https://www.dailymotion.com/video/x8abc12",
    "https://soundcloud.com/artist/track",
    "https://example.com/",
    "https://example.com/page.html",
    "https://example.com/mp3",
    "https://example.com/.mp3",
    "https://example.com/episode.mp3.html",
    "https://example.com/episode.mp3/",
    // bad YouTube ids and paths
    "https://www.youtube.com/watch?v=dQw4w9WgXc",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQQ",
    "https://www.youtube.com/watch?v=dQw4w9WgXc!",
    "https://www.youtube.com/watch",
    "https://www.youtube.com/watch?list=PL1234567890",
    "https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf",
    "https://www.youtube.com/channel/UC_x5XG1OV2P6uZZ5FSM9Ttw",
    "https://www.youtube.com/@GoogleDevelopers",
    "https://www.youtube.com/shorts/",
    "https://www.youtube.com/shorts/abc",
    "https://youtu.be/",
    "https://youtu.be/dQw4w9WgXcQ/extra",
    "https://www.youtube.com/video.mp4",
    // bad X
    "https://x.com/NASA",
    "https://x.com/NASA/status/",
    "https://x.com/NASA/status/abc",
    "https://x.com/NASA/likes",
    "https://x.com/this_name_is_too_long_for_x/status/123",
    "https://x.com/NASA/status/123456789012345678901234567890",
    // bad TikTok
    "https://www.tiktok.com/@scout2015",
    "https://www.tiktok.com/@scout2015/video/abc",
    "https://www.tiktok.com/foryou",
    "https://vm.tiktok.com/",
    "https://vm.tiktok.com/a/b/c",
    // bad Facebook
    "https://www.facebook.com/NASA",
    "https://www.facebook.com/watch/?v=abc",
    "https://www.facebook.com/watch/",
    "https://www.facebook.com/photo.php?fbid=123",
    "https://fb.watch/",
    // bad Instagram
    "https://www.instagram.com/natgeo/",
    "https://www.instagram.com/stories/natgeo/3312345678901234567/",
    "https://www.instagram.com/p/",
    "https://www.instagram.com/p/ab!cd/",
    // bad RedNote
    "https://www.xiaohongshu.com/explore/12345",
    "https://www.xiaohongshu.com/explore/64f1a2b3c4d5e6f708192a3z",
    "https://www.xiaohongshu.com/user/profile/5ff0e6410000000001008400",
    "https://xhslink.com/",
    // bad Vimeo
    "https://vimeo.com/staffpicks",
    "https://vimeo.com/channels/staffpicks",
    "https://player.vimeo.com/video/abc",
    "https://vimeo.com/76979871/not-a-hash",
    // internal hosts with media paths
    "http://127.0.0.1/a.mp3",
    "http://localhost:3000/a.mp3",
    "http://[::1]/a.mp3",
    "http://10.0.0.1/x.mp3",
    "http://169.254.169.254/latest.mp3",
    "http://0x7f000001/a.mp3",
    // too long
    `https://www.youtube.com/watch?v=dQw4w9WgXcQ&pad=${"a".repeat(3000)}`,
    `https://example.com/${"a".repeat(3000)}.mp3`,
  ];
  it.each(negatives)("%s", (url) => {
    expect(parseSourceUrl(url)).toBeNull();
  });

  it("is null for non-strings", () => {
    expect(parseSourceUrl(undefined as unknown as string)).toBeNull();
    expect(parseSourceUrl(42 as unknown as string)).toBeNull();
  });
});

describe("platform list", () => {
  it("has the nine platforms and a sentence for error messages", () => {
    expect(PLATFORMS).toEqual([
      "youtube",
      "x",
      "tiktok",
      "facebook",
      "instagram",
      "rednote",
      "vimeo",
      "upload",
      "podcast",
    ]);
    expect(isPlatform("vimeo")).toBe(true);
    expect(isPlatform("myspace")).toBe(false);
    expect(SUPPORTED_PLATFORMS_SENTENCE).toMatch(/YouTube.*X \(Twitter\).*TikTok.*Facebook.*Instagram.*RedNote.*Vimeo/);
    expect(SUPPORTED_PLATFORMS_SENTENCE).toContain(".mp3");
  });
});
