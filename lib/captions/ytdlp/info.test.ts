import { describe, expect, it } from "vitest";

import { fixtureText, loadFixture, PLACEHOLDER_ORIGIN } from "@/test/fakes/ytdlp/server";

import { pickTrack } from "../pick-track";
import {
  captionTracks,
  chooseFormat,
  isYtDlpTrackRef,
  parseInfoJson,
  translationTarget,
  type YtDlpTrackRef,
} from "./info";
import { languageName, normalizeLang } from "./language-keys";

const refOf = (t: { ref: unknown }) => t.ref as YtDlpTrackRef;

describe("normalizeLang", () => {
  it.each([
    ["en", "en"],
    ["en-US", "en"],
    ["en_US", "en"],
    ["eng-US", "en"],
    ["EN-gb", "en"],
    ["spa-ES", "es"],
    ["es_LA", "es-419"],
    ["es-419", "es-419"],
    ["es-ES", "es"],
    ["es-MX", "es-419"],
    ["pt-BR", "pt-BR"],
    ["pt_PT", "pt-PT"],
    ["por", "pt"],
    ["fra", "fr"],
    ["fre", "fr"],
    ["deu-DE", "de"],
    ["ger", "de"],
    ["jpn-JP", "ja"],
    ["kor-KR", "ko"],
    ["ara-SA", "ar"],
    ["cmn-Hans-CN", "zh-Hans"],
    ["cmn-Hant-TW", "zh-Hant"],
    ["zh-CN", "zh-Hans"],
    ["zh_TW", "zh-Hant"],
    ["zh-HK", "zh-Hant"],
    ["zh-Hans", "zh-Hans"],
    ["zh", "zh"],
    ["iw", "he"],
    ["in", "id"],
    ["yue", "yue"],
    ["fil", "fil"],
    ["sr-Latn", "sr-Latn"],
  ])("%s → %s", (key, lang) => {
    expect(normalizeLang(key)).toEqual({ lang, auto: false });
  });

  it("marks Vimeo's -x-autogen as auto and strips it", () => {
    expect(normalizeLang("en-x-autogen")).toEqual({ lang: "en", auto: true });
    expect(normalizeLang("pt-BR-x-autogen")).toEqual({ lang: "pt-BR", auto: true });
    expect(normalizeLang("de-x-private")).toEqual({ lang: "de", auto: false });
  });

  it.each([
    "live_chat",
    "danmaku",
    "rechat",
    "en-orig",
    "de-orig",
    "und",
    "UND",
    "mul",
    "zxx",
    "",
    "  ",
    "english",
    "1234",
    "x",
  ])("excludes %j", (key) => {
    expect(normalizeLang(key)).toBeNull();
  });
});

describe("languageName", () => {
  it("names codes in English", () => {
    expect(languageName("en")).toBe("English");
    expect(languageName("zh-Hans")).toBe("Simplified Chinese");
    expect(languageName("pt-BR")).toBe("Brazilian Portuguese");
    expect(languageName("qqq")).toBeNull();
  });
});

describe("chooseFormat", () => {
  const f = (ext: string, extra: Record<string, unknown> = {}) => ({
    ext,
    url: `https://cdn.example/s.${ext}`,
    ...extra,
  });

  it("prefers json3 > vtt > srt > srv3 > ttml whatever the order", () => {
    expect(chooseFormat([f("ttml"), f("srv3"), f("srt"), f("vtt"), f("json3")])?.ext).toBe("json3");
    expect(chooseFormat([f("srv1"), f("ttml"), f("vtt"), f("srt")])?.ext).toBe("vtt");
    expect(chooseFormat([f("ttml"), f("srt"), f("srv3")])?.ext).toBe("srt");
    expect(chooseFormat([f("ttml"), f("srv3")])?.ext).toBe("srv3");
    expect(chooseFormat([f("srv2"), f("ttml")])?.ext).toBe("ttml");
  });

  it("ignores formats it cannot parse and entries it cannot fetch", () => {
    expect(chooseFormat([f("json"), f("srv1"), f("srv2"), f("unknown_video")])).toBeNull();
    expect(chooseFormat([{ ext: "vtt" }, { ext: "vtt", url: "ftp://x/y.vtt" }])).toBeNull();
    expect(chooseFormat([{ ext: "vtt", url: "https://x/y.mpd", protocol: "http_dash_segments" }])).toBeNull();
    expect(chooseFormat([{ ext: "srt", url: "https://x/p.m3u8", protocol: "m3u8_native" }])).toBeNull();
    expect(chooseFormat([{ ext: "srt", data: "1\n00:00:01,000 --> 00:00:02,000\nhi" }])?.ext).toBe("srt");
  });

  it("accepts HLS WebVTT (X) and maps webvtt/dfxp spellings", () => {
    expect(chooseFormat([{ ext: "vtt", url: "https://x/p.m3u8", protocol: "m3u8_native" }])?.protocol).toBe(
      "m3u8_native",
    );
    expect(chooseFormat([{ ext: "webvtt", url: "https://x/s" }])?.ext).toBe("webvtt");
    expect(chooseFormat([{ ext: "dfxp", url: "https://x/s" }])?.ext).toBe("dfxp");
  });
});

describe("captionTracks", () => {
  it("puts manual tracks first and keeps one per language and kind", () => {
    const tracks = captionTracks(
      {
        en_US: [{ ext: "srt", url: "https://a/1.srt" }],
        en_GB: [{ ext: "srt", url: "https://a/2.srt" }],
        fr: [{ ext: "vtt", url: "https://a/3.vtt" }],
      },
      {
        en: [
          { ext: "vtt", url: "https://a/4.vtt" },
          { ext: "json3", url: "https://a/4.json3" },
        ],
        "en-orig": [{ ext: "vtt", url: "https://a/5.vtt" }],
        live_chat: [{ ext: "json", url: "https://a/6" }],
      },
    );
    expect(tracks.map((t) => [t.lang, t.kind, refOf(t).url])).toEqual([
      ["en", "manual", "https://a/1.srt"],
      ["fr", "manual", "https://a/3.vtt"],
      ["en", "auto", "https://a/4.json3"],
    ]);
  });

  it("labels YouTube's machine translations (de-en, zh-Hans-en, tlang=) as translated, after the originals", () => {
    // yt-dlp's order for a German video with manual English captions: the translations of the
    // manual track ("<target>-en", tlang in the URL) come before the German ASR track ("de", no tlang).
    const tt = (q: string) => [
      { ext: "json3", url: `https://www.youtube.com/api/timedtext?v=x&caps=asr&lang=${q}&fmt=json3` },
    ];
    const tracks = captionTracks(
      { en: [{ ext: "json3", url: "https://www.youtube.com/api/timedtext?v=x&lang=en&fmt=json3" }] },
      {
        "de-en": tt("en&tlang=de"),
        "zh-Hans-en": tt("en&tlang=zh-Hans"),
        "fr-en-GB": tt("en-GB&tlang=fr"),
        "de-orig": tt("de"),
        de: tt("de"),
        it: tt("de&tlang=it"),
      },
    );
    expect(tracks.map((t) => [t.lang, t.kind, refOf(t).key])).toEqual([
      ["en", "manual", "en"],
      ["de", "auto", "de"],
      ["de", "translated", "de-en"],
      ["zh-Hans", "translated", "zh-Hans-en"],
      ["fr", "translated", "fr-en-GB"],
      ["it", "translated", "it"],
    ]);
    // A plain request for German gets the original German track, never the translation.
    expect(refOf(pickTrack(tracks, "de") as { ref: unknown }).key).toBe("de");
    // Languages only a translation has are still served, labelled as such.
    expect(pickTrack(tracks, "zh-Hans")?.kind).toBe("translated");
    expect(pickTrack(tracks, "en")?.kind).toBe("manual");
  });

  it("tells translation keys from regions and scripts", () => {
    expect(translationTarget("de-en", null)).toBe("de");
    expect(translationTarget("zh-Hans-en", null)).toBe("zh-Hans");
    expect(translationTarget("pt-BR", null)).toBeNull();
    expect(translationTarget("es-419", null)).toBeNull();
    expect(translationTarget("zh-Hant", null)).toBeNull();
    expect(translationTarget("en-x-autogen", null)).toBeNull();
    expect(translationTarget("eng-US", "https://a/1.vtt")).toBeNull();
    expect(translationTarget("ko", "https://www.youtube.com/api/timedtext?lang=en&tlang=ko")).toBe("ko");
    expect(translationTarget("ko", "not a url")).toBeNull();
  });

  it("copes with missing or malformed dicts", () => {
    expect(captionTracks(undefined, null)).toEqual([]);
    expect(captionTracks([], "x")).toEqual([]);
    expect(captionTracks({ en: "nope", fr: [null, 3] }, {})).toEqual([]);
  });
});

describe("parseInfoJson: fixtures built from each extractor's output", () => {
  it("X: HLS WebVTT rendition, media id vs tweet id, duration rounded up", () => {
    const info = parseInfoJson(fixtureText("x"));
    expect(info).toMatchObject({
      id: "1790000000000000002",
      displayId: "1790000000000000001",
      title: "Verbatim Demo - Three things we learned building a transcript API \u{1F9F5}",
      durationSeconds: 48,
      extractor: "twitter",
      extractorKey: "Twitter",
      webpageUrl: "https://x.com/i/status/1790000000000000001",
    });
    expect(info.tracks).toEqual([
      {
        lang: "en",
        name: "English",
        kind: "manual",
        ref: {
          url: `${PLACEHOLDER_ORIGIN}/x/ext_tw_video/1790000000000000002/pu/pl/subs/en/Zb3kXQ1aPq0rT9mA.m3u8`,
          format: "vtt",
          protocol: "m3u8_native",
          key: "en",
        },
      },
    ]);
  });

  it("TikTok: eng-US/cmn-Hans-CN/spa-ES, vtt chosen over creator_caption json", () => {
    const info = parseInfoJson(loadFixture("tiktok"));
    expect(info).toMatchObject({ id: "7350000000000000001", durationSeconds: 62, extractorKey: "TikTok" });
    expect(info.title).toBe("How we turn any video link into a clean transcript #developer #api");
    expect(info.tracks.map((t) => [t.lang, t.name, t.kind, refOf(t).key, refOf(t).format])).toEqual([
      ["zh-Hans", "Simplified Chinese", "manual", "cmn-Hans-CN", "vtt"],
      ["en", "English", "manual", "eng-US", "vtt"],
      ["es", "Spanish", "manual", "spa-ES", "vtt"],
    ]);
    expect(refOf(info.tracks[1]!).url).toMatch(/\/o1AbCdEfGhIjKlMnOp\/\?a=1988&/);
  });

  it("Facebook: locale keys, manual and auto, ext filled from the .srt URL", () => {
    const info = parseInfoJson(loadFixture("facebook"));
    expect(info).toMatchObject({ id: "1234567890123456", durationSeconds: 96, extractorKey: "Facebook" });
    expect(info.tracks.map((t) => [t.lang, t.name, t.kind, refOf(t).key, refOf(t).format])).toEqual([
      ["en", "English", "manual", "en_US", "srt"],
      ["es-419", "Latin American Spanish", "auto", "es_LA", "srt"],
    ]);
  });

  it("Instagram: no captions (the extractor never lists any)", () => {
    const info = parseInfoJson(loadFixture("instagram"));
    expect(info).toMatchObject({
      id: "C6xYzAbCdEf",
      title: "Video by verbatim.demo",
      durationSeconds: 34,
      extractorKey: "Instagram",
      tracks: [],
    });
  });

  it("RedNote: no captions, title and duration from the note", () => {
    const info = parseInfoJson(loadFixture("rednote"));
    expect(info).toMatchObject({
      id: "6650f0a1000000001e00abcd",
      title: "三分钟做好会议纪要",
      durationSeconds: 182,
      extractorKey: "XiaoHongShu",
      tracks: [],
    });
  });

  it("Vimeo: text tracks, en-x-autogen becomes an auto track", () => {
    const info = parseInfoJson(loadFixture("vimeo"));
    expect(info).toMatchObject({
      id: "987654321",
      title: "Verbatim: from link to transcript",
      durationSeconds: 143,
      extractorKey: "Vimeo",
    });
    expect(info.tracks.map((t) => [t.lang, t.name, t.kind, refOf(t).key])).toEqual([
      ["en", "English", "manual", "en"],
      ["fr", "French", "manual", "fr"],
      ["en", "English", "auto", "en-x-autogen"],
    ]);
    for (const t of info.tracks) expect(isYtDlpTrackRef(t.ref)).toBe(true);
  });
});

describe("parseInfoJson: shapes", () => {
  it("takes the first playlist entry with captions (multi-video tweet, carousel)", () => {
    const info = parseInfoJson({
      _type: "playlist",
      title: "Post by someone",
      webpage_url: "https://x.com/i/status/1",
      entries: [
        { id: "a", title: "#1", duration: 5 },
        { id: "b", title: "#2", duration: 7.2, subtitles: { en: [{ ext: "vtt", url: "https://a/b.vtt" }] } },
      ],
    });
    expect(info).toMatchObject({ id: "b", title: "#2", durationSeconds: 8, webpageUrl: "https://x.com/i/status/1" });
    expect(info.tracks).toHaveLength(1);
    expect(parseInfoJson({ _type: "playlist", title: "P", entries: [{ id: "a" }] })).toMatchObject({
      id: "a",
      title: "P",
      tracks: [],
    });
    expect(() => parseInfoJson({ _type: "playlist", entries: [] })).toThrow(/no video/);
  });

  it("duration: whole seconds rounded up, 0 when missing or nonsense", () => {
    expect(parseInfoJson({ id: "a", duration: 60 }).durationSeconds).toBe(60);
    expect(parseInfoJson({ id: "a", duration: 60.001 }).durationSeconds).toBe(61);
    expect(parseInfoJson({ id: "a" }).durationSeconds).toBe(0);
    expect(parseInfoJson({ id: "a", duration: "12" }).durationSeconds).toBe(0);
    expect(parseInfoJson({ id: "a", duration: -3 }).durationSeconds).toBe(0);
  });

  it("title: null when empty", () => {
    expect(parseInfoJson({ id: "a", title: "  " }).title).toBeNull();
  });

  it("refuses what is not an info dict", () => {
    expect(() => parseInfoJson("null")).toThrow(/no info dict/);
    expect(() => parseInfoJson("<html>")).toThrow(/not JSON/);
    expect(() => parseInfoJson([1])).toThrow(/no info dict/);
  });

  it("keeps inline subtitle data (TikTok's aweme API) in the ref", () => {
    const info = parseInfoJson({
      id: "a",
      subtitles: { "eng-US": [{ ext: "srt", data: "1\n00:00:01,000 --> 00:00:02,000\nhi" }] },
    });
    expect(info.tracks[0]?.ref).toEqual({
      url: null,
      data: "1\n00:00:01,000 --> 00:00:02,000\nhi",
      format: "srt",
      key: "eng-US",
    });
  });
});

describe("metadata every platform may report", () => {
  it("channel, publish date and yt-dlp's chapters", () => {
    const info = parseInfoJson({
      id: "a",
      duration: 300,
      channel: "Kitchen Physics",
      uploader: "kp",
      upload_date: "20240314",
      chapters: [
        { start_time: 0, end_time: 100, title: "Intro" },
        { start_time: 100, end_time: 300, title: "Main" },
      ],
    });
    expect(info).toMatchObject({
      channel: "Kitchen Physics",
      publishedAt: "2024-03-14",
      chapters: [
        { start: 0, title: "Intro" },
        { start: 100, title: "Main" },
      ],
    });
  });

  it("falls back to the uploader, a timestamp, and the description's timestamps", () => {
    const info = parseInfoJson({
      id: "a",
      duration: 200,
      uploader: "someone",
      timestamp: 1710424810,
      description: "0:00 One\n1:00 Two\n2:00 Three",
    });
    expect(info).toMatchObject({
      channel: "someone",
      publishedAt: "2024-03-14T14:00:10.000Z",
      chapters: [{ start: 0 }, { start: 60 }, { start: 120 }],
    });
    expect(parseInfoJson({ id: "a" })).toMatchObject({ channel: null, publishedAt: null, chapters: [] });
  });
});
