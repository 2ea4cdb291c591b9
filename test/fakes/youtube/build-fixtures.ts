/**
 * Writes the fake YouTube's fixtures (test/fakes/youtube/fixtures/**). Run after changing
 * fixtures/speech.ts or the shapes below:
 *
 *   npx tsx test/fakes/youtube/build-fixtures.ts
 *
 * Everything here is HAND-MADE to the structure of YouTube's real responses (InnerTube WEB client
 * /youtubei/v1/player and /config, /api/timedtext in json3, srv3, classic XML and WebVTT), as read
 * by youtubei.js 18.1.0's parser and as seen in published samples. Nothing was recorded from
 * youtube.com: ids, signatures, tokens and tracking strings are made up.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { LINES, type TimedLine, timeLines } from "./fixtures/speech";
import { FAKE_IDS } from "./ids";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "fixtures");
const WEB_CLIENT_VERSION = "2.20260623.01.00";

function write(rel: string, content: string): void {
  const path = join(ROOT, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content.endsWith("\n") ? content : `${content}\n`);
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

// ---------------------------------------------------------------------------------------------------
// Player responses
// ---------------------------------------------------------------------------------------------------

function responseContext(visitorData: string) {
  return {
    visitorData,
    serviceTrackingParams: [
      {
        service: "GFEEDBACK",
        params: [
          { key: "is_viewed_live", value: "False" },
          { key: "logged_in", value: "0" },
          { key: "e", value: "23804281,24004644,24077241,24166867,24181174,24241378,24439361,51009781,51025415" },
        ],
      },
      {
        service: "CSI",
        params: [
          { key: "c", value: "WEB" },
          { key: "cver", value: WEB_CLIENT_VERSION },
          { key: "yt_li", value: "0" },
          { key: "GetPlayer_rid", value: "0x5d2b9a1f7c3e4b06" },
        ],
      },
      { service: "GUIDED_HELP", params: [{ key: "logged_in", value: "0" }] },
      {
        service: "ECATCHER",
        params: [
          { key: "client.version", value: WEB_CLIENT_VERSION.slice(0, 10) },
          { key: "client.name", value: "WEB" },
        ],
      },
    ],
    maxAgeSeconds: 0,
    mainAppWebResponseContext: {
      loggedOut: true,
      trackingParam: "kx_fmPxhoPZRkI7mCvXtP0zUUxUnZFbcjTiJd0m4gK7Q2Br4kvXq",
    },
    webResponseContextExtensionData: { hasDecorated: true },
  };
}

function thumbnails(id: string) {
  return {
    thumbnails: [
      {
        url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=-oaymwEbCKgBEF5IVfKriqkDDggBFQAAiEIYAXABwAEG&rs=AOn4CLBsM0kd`,
        width: 168,
        height: 94,
      },
      {
        url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=-oaymwEcCMQBEG5IVfKriqkDDwgBFQAAiEIYAXABwAEG&rs=AOn4CLD7yQkm`,
        width: 196,
        height: 110,
      },
      {
        url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=-oaymwEcCPYBEIoBSFXyq4qpAw4IARUAAIhCGAFwAcABBg==&rs=AOn4CLAq2Hk`,
        width: 246,
        height: 138,
      },
      {
        url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=-oaymwEcCNACELwBSFXyq4qpAw4IARUAAIhCGAFwAcABBg==&rs=AOn4CLCnE0pW`,
        width: 336,
        height: 188,
      },
      { url: `https://i.ytimg.com/vi_webp/${id}/maxresdefault.webp`, width: 1920, height: 1080 },
    ],
  };
}

interface VideoMeta {
  id: string;
  title: string;
  lengthSeconds: number;
  author: string;
  channelId: string;
  handle: string;
  description: string;
  keywords: string[];
  viewCount: number;
  category: string;
  publishDate: string;
  familySafe: boolean;
}

function videoDetails(v: VideoMeta) {
  return {
    videoId: v.id,
    title: v.title,
    lengthSeconds: String(v.lengthSeconds),
    keywords: v.keywords,
    channelId: v.channelId,
    isOwnerViewing: false,
    shortDescription: v.description,
    isCrawlable: true,
    thumbnail: thumbnails(v.id),
    allowRatings: true,
    viewCount: String(v.viewCount),
    author: v.author,
    isPrivate: false,
    isUnpluggedCorpus: false,
    isLiveContent: false,
  };
}

function microformat(v: VideoMeta) {
  return {
    playerMicroformatRenderer: {
      thumbnail: {
        thumbnails: [{ url: `https://i.ytimg.com/vi/${v.id}/maxresdefault.jpg`, width: 1280, height: 720 }],
      },
      embed: { iframeUrl: `https://www.youtube.com/embed/${v.id}`, width: 1280, height: 720 },
      title: { simpleText: v.title },
      description: { simpleText: v.description },
      lengthSeconds: String(v.lengthSeconds),
      ownerProfileUrl: `http://www.youtube.com/${v.handle}`,
      externalChannelId: v.channelId,
      isFamilySafe: v.familySafe,
      availableCountries: [
        "AD",
        "AE",
        "AT",
        "AU",
        "BE",
        "BR",
        "CA",
        "CH",
        "DE",
        "DK",
        "ES",
        "FI",
        "FR",
        "GB",
        "IE",
        "IN",
        "IT",
        "JP",
        "NL",
        "NO",
        "NZ",
        "PL",
        "PT",
        "SE",
        "US",
      ],
      isUnlisted: false,
      hasYpcMetadata: false,
      viewCount: String(v.viewCount),
      category: v.category,
      publishDate: v.publishDate,
      ownerChannelName: v.author,
      uploadDate: v.publishDate,
      isShortsEligible: false,
      externalVideoId: v.id,
      likeCount: String(Math.round(v.viewCount * 0.041)),
      canonicalUrl: `https://www.youtube.com/watch?v=${v.id}`,
    },
  };
}

function streamingData(v: VideoMeta) {
  const cipher = (itag: number) =>
    `s=${"AOq0QJ8wRQIgZ3nV1kq7Xb2Yc0Jt4s9Lw6Ue8Rf5Ta1Hh3Gm7Pd2ViYCIQD".slice(0, 40)}%3D%3D&sp=sig&url=` +
    encodeURIComponent(
      `https://rr3---sn-4g5lznez.googlevideo.com/videoplayback?expire=1767225600&ei=pUtjZ8WkLcXi&ip=203.0.113.7&id=o-AJm3kXWq8&itag=${itag}` +
        `&source=youtube&requiressl=yes&mime=video%2Fmp4&dur=${v.lengthSeconds}.151&lmt=1710425512318204&txp=5538434&n=Vq3nKd0XfB9m`,
    );
  const approx = String(v.lengthSeconds * 1000 + 151);
  return {
    expiresInSeconds: "21540",
    formats: [
      {
        itag: 18,
        mimeType: 'video/mp4; codecs="avc1.42001E, mp4a.40.2"',
        bitrate: 415210,
        width: 640,
        height: 360,
        lastModified: "1710425512318204",
        quality: "medium",
        fps: 25,
        qualityLabel: "360p",
        projectionType: "RECTANGULAR",
        audioQuality: "AUDIO_QUALITY_LOW",
        approxDurationMs: approx,
        audioSampleRate: "44100",
        audioChannels: 2,
        signatureCipher: cipher(18),
      },
    ],
    adaptiveFormats: [
      {
        itag: 136,
        mimeType: 'video/mp4; codecs="avc1.4d401f"',
        bitrate: 1159244,
        width: 1280,
        height: 720,
        initRange: { start: "0", end: "739" },
        indexRange: { start: "740", end: "1195" },
        lastModified: "1710425460127833",
        contentLength: "17219904",
        quality: "hd720",
        fps: 25,
        qualityLabel: "720p",
        projectionType: "RECTANGULAR",
        averageBitrate: 735890,
        approxDurationMs: approx,
        signatureCipher: cipher(136),
      },
      {
        itag: 140,
        mimeType: 'audio/mp4; codecs="mp4a.40.2"',
        bitrate: 130670,
        initRange: { start: "0", end: "722" },
        indexRange: { start: "723", end: "1002" },
        lastModified: "1710425451592071",
        contentLength: "3030421",
        quality: "tiny",
        projectionType: "RECTANGULAR",
        averageBitrate: 129446,
        highReplication: true,
        audioQuality: "AUDIO_QUALITY_MEDIUM",
        approxDurationMs: approx,
        audioSampleRate: "44100",
        audioChannels: 2,
        loudnessDb: -1.37,
        signatureCipher: cipher(140),
      },
    ],
    serverAbrStreamingUrl:
      "https://rr3---sn-4g5lznez.googlevideo.com/videoplayback?expire=1767225600&ei=pUtjZ8WkLcXi&ip=203.0.113.7&id=o-AJm3kXWq8&source=youtube&requiressl=yes&sabr=1",
  };
}

function playbackTracking(v: VideoMeta) {
  const q = `cl=738291455&docid=${v.id}&ei=pUtjZ8WkLcXi&fexp=v1%2C24004644&ns=yt&plid=AAYx4T7Qm0Jq&el=detailpage&len=${v.lengthSeconds}&of=Xq2Vn7bKp0cLm9dRw4sT1A&vm=CAEQARgEOjJBSHFpSlRJ`;
  return {
    videostatsPlaybackUrl: { baseUrl: `https://s.youtube.com/api/stats/playback?${q}` },
    videostatsDelayplayUrl: { baseUrl: `https://s.youtube.com/api/stats/delayplay?${q}` },
    videostatsWatchtimeUrl: { baseUrl: `https://s.youtube.com/api/stats/watchtime?${q}` },
    ptrackingUrl: {
      baseUrl: `https://www.youtube.com/ptracking?ei=pUtjZ8WkLcXi&oid=Kq0x7T2mVb9&plid=AAYx4T7Qm0Jq&pltype=content&ptchn=${v.channelId.slice(2)}&ptk=youtube_single&video_id=${v.id}`,
    },
    qoeUrl: {
      baseUrl: `https://s.youtube.com/api/stats/qoe?cl=738291455&docid=${v.id}&ei=pUtjZ8WkLcXi&event=streamingstats&plid=AAYx4T7Qm0Jq`,
    },
    atrUrl: {
      baseUrl: `https://s.youtube.com/api/stats/atr?docid=${v.id}&len=${v.lengthSeconds}&ns=yt&plid=AAYx4T7Qm0Jq&ver=2`,
      elapsedMediaTimeSeconds: 5,
    },
    videostatsScheduledFlushWalltimeSeconds: [10, 20, 30],
    videostatsDefaultFlushIntervalSeconds: 40,
  };
}

function storyboards(v: VideoMeta) {
  return {
    playerStoryboardSpecRenderer: {
      spec:
        `https://i.ytimg.com/sb/${v.id}/storyboard3_L$L/$N.jpg?sqp=-oaymwENSDfyq4qpAwVwAcABBqLzl_8DBgiQ2cKuBg==` +
        "|48#27#100#10#10#0#default#rs$AOn4CLBqK7vXw2Yq9Vd0mJt3Nc8Hs1Lg6A" +
        `|80#45#${Math.ceil(v.lengthSeconds / 2)}#10#10#2000#M$M#rs$AOn4CLDmT5k0Rq8Wc3Vb7Xn2Jh9Ls4Fg1Q` +
        `|160#90#${Math.ceil(v.lengthSeconds / 2)}#5#5#2000#M$M#rs$AOn4CLC2Pq7Vm0Xk9Jd4Tn8Wr3Hs6Lb1Gg`,
      recommendedLevel: 2,
      highResolutionRecommendedLevel: 2,
    },
  };
}

function playerConfig() {
  return {
    audioConfig: { loudnessDb: -1.37, perceptualLoudnessDb: -15.37, enablePerFormatLoudness: true },
    streamSelectionConfig: { maxBitrate: "2260000" },
    mediaCommonConfig: {
      dynamicReadaheadConfig: {
        maxReadAheadMediaTimeMs: 120000,
        minReadAheadMediaTimeMs: 15000,
        readAheadGrowthRateMs: 1000,
      },
    },
    webPlayerConfig: {
      useCobaltTvosDash: true,
      webPlayerActionsPorting: { getSharePanelCommand: {}, subscribeCommand: {}, unsubscribeCommand: {} },
    },
  };
}

function timedtextUrl(id: string, lang: string, asr: boolean, sig: string): string {
  const caps = asr ? "&caps=asr" : "";
  const sparams = asr ? "ip,ipbits,expire,v,ei,caps,opi,xoaf" : "ip,ipbits,expire,v,ei,opi,xoaf";
  return (
    `https://www.youtube.com/api/timedtext?v=${id}&ei=pUtjZ8WkLcXi${caps}&opi=112496729&xoaf=5&hl=en&ip=0.0.0.0&ipbits=0` +
    `&expire=1767229200&sparams=${sparams}&signature=${sig}&key=yt8${asr ? "&kind=asr" : ""}&lang=${lang}`
  );
}

/** Track names as the WEB client gets them with hl=en: simpleText, or runs in some responses. */
function captions(id: string) {
  return {
    playerCaptionsTracklistRenderer: {
      captionTracks: [
        {
          baseUrl: timedtextUrl(
            id,
            "en",
            false,
            "4C1F0B9E2D7A63E58C0B41F9A2D6E7C3B8F05A14.6E2B7D91C4A0F35E8B16D2C7A9F04E3B5D81C62A",
          ),
          name: { simpleText: "English" },
          vssId: ".en",
          languageCode: "en",
          isTranslatable: true,
          trackName: "",
        },
        {
          baseUrl: timedtextUrl(
            id,
            "en",
            true,
            "9A3E51C07F2B8D46E1A90C3F5B7D2E84A6C1F093.2D8F4B6A1E9C03D57B2F8A4E6C1D9B03F5A7E28C",
          ),
          name: { simpleText: "English (auto-generated)" },
          vssId: "a.en",
          languageCode: "en",
          kind: "asr",
          isTranslatable: true,
          trackName: "",
        },
        {
          baseUrl: timedtextUrl(
            id,
            "de",
            false,
            "B7E2A94F1C0D83E65A2B9F4C7D1E03A8B5F62C9D.0F3A8C5E2B7D1946A0C3E8F5B2D7A41C9E6F03B8",
          ),
          name: { runs: [{ text: "German" }] },
          vssId: ".de",
          languageCode: "de",
          isTranslatable: true,
          trackName: "",
        },
      ],
      audioTracks: [
        {
          captionTrackIndices: [0, 1, 2],
          defaultCaptionTrackIndex: 0,
          visibility: "UNKNOWN",
          hasDefaultTrack: true,
          captionsInitialState: "CAPTIONS_INITIAL_STATE_OFF_RECOMMENDED",
        },
      ],
      translationLanguages: [
        ["af", "Afrikaans"],
        ["ar", "Arabic"],
        ["bn", "Bangla"],
        ["zh-Hans", "Chinese (Simplified)"],
        ["zh-Hant", "Chinese (Traditional)"],
        ["nl", "Dutch"],
        ["en", "English"],
        ["fr", "French"],
        ["de", "German"],
        ["iw", "Hebrew"],
        ["hi", "Hindi"],
        ["it", "Italian"],
        ["ja", "Japanese"],
        ["ko", "Korean"],
        ["pl", "Polish"],
        ["pt", "Portuguese"],
        ["ru", "Russian"],
        ["es", "Spanish"],
        ["sv", "Swedish"],
        ["tr", "Turkish"],
        ["uk", "Ukrainian"],
        ["vi", "Vietnamese"],
      ].map(([languageCode, name]) => ({ languageCode, languageName: { simpleText: name } })),
      defaultAudioTrackIndex: 0,
    },
  };
}

function attestation() {
  return {
    playerAttestationRenderer: {
      challenge:
        "a=6&a2=10&b=Qm7v3Xk0Jt2Nd9Ws4Lb8Hq1Pc5Rg&c=1767225600&d=1&t=7200&c1a=1&c6a=1&c6b=1&hh=Zx3Vq8Kd0Tm2Lw7Jn4Bs9Rg5Pc1Hf6",
      botguardData: {
        program: "Vq8Xk3Jt0Nd2Ws9Lb4Hq7Pc1Rg5Zm6Tf0Yb3Kc8Wd2Jn7Ls4Ph9Qg1Rv5Xm0",
        interpreterSafeUrl: {
          privateDoNotAccessOrElseTrustedResourceUrlWrappedValue:
            "//www.google.com/js/th/Zq3Vx8Kd0Tm2Lw7Jn4Bs9Rg5Pc1.js",
        },
        serverEnvironment: 1,
      },
    },
  };
}

function playerOk(v: VideoMeta, withCaptions: boolean) {
  return {
    responseContext: responseContext("CgtIcTdzV2MyZFQ0RSiAqsq-BjIKCgJVUxIEGgAgNw%3D%3D"),
    playabilityStatus: {
      status: "OK",
      playableInEmbed: true,
      miniplayer: { miniplayerRenderer: { playbackMode: "PLAYBACK_MODE_ALLOW" } },
      contextParams: "Q0FBU0FnZ0M=",
    },
    streamingData: streamingData(v),
    playbackTracking: playbackTracking(v),
    ...(withCaptions ? { captions: captions(v.id) } : {}),
    videoDetails: videoDetails(v),
    playerConfig: playerConfig(),
    storyboards: storyboards(v),
    microformat: microformat(v),
    trackingParams: "CAAQu2kiEwjR7t6Pq5OKAxXWTk8EHe5tFYQ=",
    attestation: attestation(),
    adBreakHeartbeatParams: "Q0FBJTNE",
  };
}

function errorScreen(reason: string, subreason: string | null, withSignIn: string | null) {
  return {
    playerErrorMessageRenderer: {
      ...(subreason ? { subreason: { runs: [{ text: subreason }] } } : {}),
      reason: { simpleText: reason },
      ...(withSignIn
        ? {
            proceedButton: {
              buttonRenderer: {
                style: "STYLE_OVERLAY",
                size: "SIZE_DEFAULT",
                isDisabled: false,
                text: { simpleText: "Sign in" },
                navigationEndpoint: {
                  clickTrackingParams: "CAEQptEGIhMI0e7ej6uTigMV1k5PBB3ubRWE",
                  commandMetadata: {
                    webCommandMetadata: {
                      url: `https://accounts.google.com/ServiceLogin?service=youtube&uilel=3&passive=true&continue=https%3A%2F%2Fwww.youtube.com%2Fsignin%3Faction_handle_signin%3Dtrue%26app%3Ddesktop%26hl%3Den%26next%3D%252Fwatch%253Fv%253D${withSignIn}&hl=en`,
                      webPageType: "WEB_PAGE_TYPE_UNKNOWN",
                      rootVe: 83769,
                    },
                  },
                  signInEndpoint: { hack: true },
                },
                trackingParams: "CAEQptEGIhMI0e7ej6uTigMV1k5PBB3ubRWE",
              },
            },
          }
        : {}),
      thumbnail: { thumbnails: [{ url: "//s.ytimg.com/yts/img/meh7-vflGevej7.png", width: 140, height: 100 }] },
      icon: { iconType: "ERROR_OUTLINE" },
    },
  };
}

/** status ERROR: removed, never existed, or terminated account. No videoDetails, no microformat. */
function playerUnavailable() {
  return {
    responseContext: responseContext("CgtuWjJ2UjhrUXcxWiiAqsq-BjIKCgJVUxIEGgAgYg%3D%3D"),
    playabilityStatus: {
      status: "ERROR",
      reason: "This video is unavailable",
      errorScreen: errorScreen("This video is unavailable", null, null),
      contextParams: "Q0FFU0FnZ0I=",
    },
    trackingParams: "CAAQu2kiEwi0wPeQq5OKAxVbQk8EHaJiLqE=",
  };
}

function playerLoginRequired(
  v: VideoMeta,
  status: string,
  reason: string,
  screen: { reason: string; subreason: string | null },
  extra: Record<string, unknown>,
) {
  return {
    responseContext: responseContext("CgtacjlrVDJtVnE4TCiAqsq-BjIKCgJVUxIEGgAgWQ%3D%3D"),
    playabilityStatus: {
      status,
      reason,
      errorScreen: errorScreen(screen.reason, screen.subreason, v.id),
      ...extra,
      contextParams: "Q0FFU0FnZ0I=",
    },
    videoDetails: videoDetails(v),
    microformat: microformat(v),
    trackingParams: "CAAQu2kiEwjPgbiRq5OKAxWsUk8EHfJwNAE=",
    adBreakHeartbeatParams: "Q0FBJTNE",
  };
}

const AGE_SCREEN = {
  reason: "Sign in to confirm your age",
  subreason: "This video may be inappropriate for some users.",
};

const CAPTIONED: VideoMeta = {
  id: FAKE_IDS.captioned,
  title: 'How Bread Rises: Yeast, Gluten & the "Oven Spring"',
  lengthSeconds: 0, // set from the speech timing below
  author: "Kitchen Physics",
  channelId: "UCq7Xk3Vt0Jm2Nd9Ws4Lb8Hq",
  handle: "@kitchenphysics",
  description:
    "Why does bread rise? Yeast, gluten and the oven spring, explained in three minutes.\n\n0:00 Intro\n0:10 Yeast\n0:35 Gluten\n1:10 Proofing\n1:45 Baking",
  keywords: ["bread", "baking", "yeast", "gluten", "science"],
  viewCount: 48213,
  category: "Education",
  publishDate: "2024-03-14T07:00:10-07:00",
  familySafe: true,
};

const NO_CAPTIONS: VideoMeta = {
  id: FAKE_IDS.noCaptions,
  title: "Sourdough starter, day 1 to day 7 (timelapse, no talking)",
  lengthSeconds: 94,
  author: "Kitchen Physics",
  channelId: "UCq7Xk3Vt0Jm2Nd9Ws4Lb8Hq",
  handle: "@kitchenphysics",
  description: "A week of sourdough starter in 90 seconds.",
  keywords: ["sourdough", "timelapse"],
  viewCount: 3120,
  category: "Howto & Style",
  publishDate: "2024-04-02T09:15:00-07:00",
  familySafe: true,
};

const AGE_GATED: VideoMeta = {
  id: FAKE_IDS.ageRestricted,
  title: "Knife skills: boning a whole salmon (graphic)",
  lengthSeconds: 612,
  author: "Fishmonger Fred",
  channelId: "UCm2Nd9Ws4Lb8Hq7Xk3Vt0Jq",
  handle: "@fishmongerfred",
  description: "Full breakdown of a 5 kg salmon.",
  keywords: ["salmon", "butchery"],
  viewCount: 201944,
  category: "Howto & Style",
  publishDate: "2023-11-20T12:00:00-08:00",
  familySafe: false,
};

// ---------------------------------------------------------------------------------------------------
// Timedtext
// ---------------------------------------------------------------------------------------------------

function xmlEscape(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Manual captions wrap long lines in two rows, as uploaded SRT files usually do. */
function wrap(text: string): string {
  if (text.length <= 42) return text;
  const words = text.split(" ");
  let best = 1;
  for (let i = 1; i < words.length; i++) {
    const left = words.slice(0, i).join(" ").length;
    const bestLeft = words.slice(0, best).join(" ").length;
    if (Math.abs(left - text.length / 2) < Math.abs(bestLeft - text.length / 2)) best = i;
  }
  return `${words.slice(0, best).join(" ")}\n${words.slice(best).join(" ")}`;
}

function vttTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

function secs(ms: number): string {
  return (ms / 1000).toFixed(3).replace(/\.?0+$/, "");
}

interface ManualCue {
  startMs: number;
  durMs: number;
  text: string;
}

function manualCues(timed: TimedLine[], column: 1 | 2): ManualCue[] {
  return timed.map((line, i) => {
    const next = timed[i + 1];
    const endMs = next ? Math.min(line.endMs + 300, next.startMs) : line.endMs + 300;
    return {
      startMs: line.startMs,
      durMs: endMs - line.startMs,
      text: wrap((LINES[line.index] as readonly string[])[column] as string),
    };
  });
}

function manualJson3(cues: ManualCue[]): string {
  return json({
    wireMagic: "pb3",
    pens: [{}],
    wsWinStyles: [{}],
    wpWinPositions: [{}],
    events: cues.map((c) => ({ tStartMs: c.startMs, dDurationMs: c.durMs, segs: [{ utf8: c.text }] })),
  });
}

function manualSrv3(cues: ManualCue[]): string {
  const body = cues.map((c) => `<p t="${c.startMs}" d="${c.durMs}">${xmlEscape(c.text)}</p>`).join("\n");
  return `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">\n<body>\n${body}\n</body>\n</timedtext>`;
}

/** Classic format: HTML-escaped text, XML-escaped again (`'` → `&amp;#39;`). */
function classicEscape(s: string): string {
  return xmlEscape(s).replace(/&/g, "&amp;");
}

function manualClassic(cues: ManualCue[]): string {
  const body = cues
    .map((c) => `<text start="${secs(c.startMs)}" dur="${secs(c.durMs)}">${classicEscape(c.text)}</text>`)
    .join("");
  return `<?xml version="1.0" encoding="utf-8" ?><transcript>${body}</transcript>`;
}

function manualVtt(cues: ManualCue[], lang: string): string {
  const blocks = cues.map(
    (c) =>
      `${vttTime(c.startMs)} --> ${vttTime(c.startMs + c.durMs)}\n${c.text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}`,
  );
  return `WEBVTT\nKind: captions\nLanguage: ${lang}\n\n${blocks.join("\n\n")}\n`;
}

/** Where each ASR word event stays on screen until: the start of the event after next. */
function asrWindow(timed: TimedLine[]) {
  const last = timed[timed.length - 1] as TimedLine;
  const finalMs = last.endMs + 1200;
  const startOf = (i: number) => (timed[i] ? (timed[i] as TimedLine).startMs : finalMs);
  return { finalMs, startOf };
}

function asrJson3(timed: TimedLine[]): string {
  const { finalMs, startOf } = asrWindow(timed);
  const events: unknown[] = [{ tStartMs: 0, dDurationMs: finalMs, id: 1, wpWinPosId: 1, wsWinStyleId: 1 }];
  timed.forEach((line, i) => {
    if (i > 0) {
      // The row break: a newline appended 10 ms before the next line's words, kept until the line after.
      events.push({
        tStartMs: line.startMs - 10,
        dDurationMs: startOf(i + 1) - (line.startMs - 10),
        wWinId: 1,
        aAppend: 1,
        segs: [{ utf8: "\n" }],
      });
    }
    const segs =
      line.words.length === 1 && line.words[0]?.text === "[Music]"
        ? [{ utf8: "[Music]" }]
        : line.words.map((w, j) =>
            j === 0 ? { utf8: w.text, acAsrConf: 0 } : { utf8: ` ${w.text}`, tOffsetMs: w.offsetMs, acAsrConf: 0 },
          );
    events.push({ tStartMs: line.startMs, dDurationMs: startOf(i + 2) - line.startMs, wWinId: 1, segs });
  });
  return json({
    wireMagic: "pb3",
    pens: [{}],
    wsWinStyles: [{}, { mhModeHint: 2, juJustifCode: 0, sdScrollDir: 3 }],
    wpWinPositions: [{}, { apPoint: 6, ahHorPos: 20, avVerPos: 100, rcRows: 2, ccCols: 40 }],
    events,
  });
}

function asrSrv3(timed: TimedLine[]): string {
  const { finalMs, startOf } = asrWindow(timed);
  const ps: string[] = [`<w t="0" id="1" wp="1" ws="1"/>`];
  timed.forEach((line, i) => {
    if (i > 0) ps.push(`<p t="${line.startMs - 10}" d="${startOf(i + 1) - (line.startMs - 10)}" w="1" a="1">\n</p>`);
    const inner =
      line.words[0]?.text === "[Music]"
        ? "[Music]"
        : line.words
            .map((w, j) =>
              j === 0 ? `<s ac="0">${xmlEscape(w.text)}</s>` : `<s t="${w.offsetMs}" ac="0"> ${xmlEscape(w.text)}</s>`,
            )
            .join("");
    ps.push(`<p t="${line.startMs}" d="${startOf(i + 2) - line.startMs}" w="1">${inner}</p>`);
  });
  void finalMs;
  return (
    `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">\n<head>\n<ws id="0"/>\n<ws id="1" mh="2" ju="0" sd="3"/>\n` +
    `<wp id="0"/>\n<wp id="1" ap="6" ah="20" av="100" rc="2" cc="40"/>\n</head>\n<body>\n${ps.join("\n")}\n</body>\n</timedtext>`
  );
}

function asrClassic(timed: TimedLine[]): string {
  const { startOf } = asrWindow(timed);
  const body = timed
    .map(
      (line, i) =>
        `<text start="${secs(line.startMs)}" dur="${secs(startOf(i + 2) - line.startMs)}">${classicEscape(line.words.map((w) => w.text).join(" "))}</text>`,
    )
    .join("");
  return `<?xml version="1.0" encoding="utf-8" ?><transcript>${body}</transcript>`;
}

/**
 * YouTube's WebVTT for auto captions: per line, a cue showing the previous line (plain) above the new
 * one (with word timing tags), then a 10 ms hold cue showing the finished line alone.
 */
function asrVtt(timed: TimedLine[]): string {
  const { finalMs, startOf } = asrWindow(timed);
  const plain = (line: TimedLine) => line.words.map((w) => w.text).join(" ");
  const tagged = (line: TimedLine) =>
    line.words.map((w, j) => (j === 0 ? w.text : `<${vttTime(line.startMs + w.offsetMs)}><c> ${w.text}</c>`)).join("");
  const blocks: string[] = [];
  timed.forEach((line, i) => {
    const prev = timed[i - 1];
    const isLast = i === timed.length - 1;
    const end = isLast ? finalMs : startOf(i + 1) - 10;
    blocks.push(
      `${vttTime(line.startMs)} --> ${vttTime(end)} align:start position:0%\n${prev ? plain(prev) : " "}\n${tagged(line)}`,
    );
    if (!isLast)
      blocks.push(`${vttTime(end)} --> ${vttTime(startOf(i + 1))} align:start position:0%\n${plain(line)}\n `);
  });
  return `WEBVTT\nKind: captions\nLanguage: en\n\n${blocks.join("\n\n")}\n`;
}

// ---------------------------------------------------------------------------------------------------

function main(): void {
  const timed = timeLines();
  const last = timed[timed.length - 1] as TimedLine;
  const captioned: VideoMeta = { ...CAPTIONED, lengthSeconds: Math.ceil((last.endMs + 1500) / 1000) };

  write(`player/${FAKE_IDS.captioned}.json`, json(playerOk(captioned, true)));
  write(`player/${FAKE_IDS.noCaptions}.json`, json(playerOk(NO_CAPTIONS, false)));
  write("player/_unavailable.json", json(playerUnavailable()));
  write(
    `player/${FAKE_IDS.ageRestricted}.json`,
    json(
      playerLoginRequired(AGE_GATED, "LOGIN_REQUIRED", "Sign in to confirm your age", AGE_SCREEN, {
        desktopLegacyAgeGateReason: 1,
      }),
    ),
  );
  write(
    `player/${FAKE_IDS.ageVerification}.json`,
    json(
      playerLoginRequired(
        { ...AGE_GATED, id: FAKE_IDS.ageVerification },
        "AGE_VERIFICATION_REQUIRED",
        "Sign in to confirm your age",
        AGE_SCREEN,
        {},
      ),
    ),
  );
  write(
    `player/${FAKE_IDS.private}.json`,
    json({
      ...playerLoginRequired(
        { ...AGE_GATED, id: FAKE_IDS.private },
        "LOGIN_REQUIRED",
        "This video is private",
        { reason: "Private video", subreason: "Sign in if you've been granted access to this video" },
        {},
      ),
      videoDetails: undefined,
      microformat: undefined,
    }),
  );
  write(
    `player/${FAKE_IDS.botCheck}.json`,
    json({
      ...playerLoginRequired(
        { ...AGE_GATED, id: FAKE_IDS.botCheck },
        "LOGIN_REQUIRED",
        "Sign in to confirm you\u2019re not a bot",
        {
          reason: "Sign in to confirm you\u2019re not a bot",
          subreason: "This helps protect our community. Learn more",
        },
        {},
      ),
      videoDetails: undefined,
      microformat: undefined,
    }),
  );

  write(
    "config.json",
    json({
      responseContext: {
        ...responseContext("CgtIcTdzV2MyZFQ0RSiAqsq-BjIKCgJVUxIEGgAgNw%3D%3D"),
        globalConfigGroup: {
          rawColdConfigGroup: { configData: "CJ_w3rwGEhk0NjE0MTI5NjY3NjQ5OTQ2NjI1MTg1NDU4MjYaQ0Fqc0N" },
          coldHashData: "CJ_w3rwGEhMxOTc3MDc1NTU2MTk5MzU3MzIyGJ_w3rwG",
          hotHashData: "CJ_w3rwGEhQxMjU0ODYyODQ3MzY4MzQ4NjQ4NxiZ8N68Big",
        },
      },
      configData: "CAMSnAEKEWxhbmd1YWdlX2RlZmF1bHQSAmVuGgJVUyIkZmF1eF9hZF9wbGFjZW1lbnRfZm9yX3Nob3J0c19lbmFibGVk",
    }),
  );

  const id = FAKE_IDS.captioned;
  const en = manualCues(timed, 1);
  const de = manualCues(timed, 2);
  write(`timedtext/${id}.en.json3`, manualJson3(en));
  write(`timedtext/${id}.en.srv3`, manualSrv3(en));
  write(`timedtext/${id}.en.xml`, manualClassic(en));
  write(`timedtext/${id}.en.vtt`, manualVtt(en, "en"));
  write(`timedtext/${id}.de.json3`, manualJson3(de));
  write(`timedtext/${id}.de.srv3`, manualSrv3(de));
  write(`timedtext/${id}.de.xml`, manualClassic(de));
  write(`timedtext/${id}.de.vtt`, manualVtt(de, "de"));
  write(`timedtext/${id}.en.asr.json3`, asrJson3(timed));
  write(`timedtext/${id}.en.asr.srv3`, asrSrv3(timed));
  write(`timedtext/${id}.en.asr.xml`, asrClassic(timed));
  write(`timedtext/${id}.en.asr.vtt`, asrVtt(timed));
}

main();
