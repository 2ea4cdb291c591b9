// ffprobe's JSON → ProbeResult, and the checks on it. Real ffprobe runs: media.int.test.ts.
import { describe, expect, it } from "vitest";

import { formatBytes, formatDuration, MediaError } from "./errors";
import { assertDuration, assertHasAudio, parseFfprobeJson } from "./probe";

describe("parseFfprobeJson", () => {
  it("reads an audio file", () => {
    const json = JSON.stringify({
      streams: [{ codec_type: "audio", codec_name: "mp3", sample_rate: "44100", channels: 2, duration: "12.5" }],
      format: { format_name: "mp3", duration: "12.512000" },
    });
    expect(parseFfprobeJson(json)).toEqual({
      durationSeconds: 12.512,
      hasAudio: true,
      hasVideo: false,
      formatName: "mp3",
      codec: "mp3",
      sampleRate: 44100,
      channels: 2,
      title: null,
    });
  });

  it("reads the file's own title tag, whatever its case; a blank one is none", () => {
    const audio = [{ codec_type: "audio", codec_name: "mp3" }];
    expect(
      parseFfprobeJson(
        JSON.stringify({ streams: audio, format: { format_name: "mp3", tags: { title: " Lecture 3:\nEntropy " } } }),
      ).title,
    ).toBe("Lecture 3: Entropy");
    expect(
      parseFfprobeJson(JSON.stringify({ streams: audio, format: { format_name: "ogg", tags: { TITLE: "Folge 12" } } }))
        .title,
    ).toBe("Folge 12");
    expect(
      parseFfprobeJson(JSON.stringify({ streams: audio, format: { format_name: "mp3", tags: { title: "  " } } })).title,
    ).toBeNull();
  });

  it("does not count cover art as video", () => {
    const json = JSON.stringify({
      streams: [
        { codec_type: "audio", codec_name: "aac", sample_rate: "48000", channels: 1 },
        { codec_type: "video", codec_name: "mjpeg", disposition: { attached_pic: 1 } },
      ],
      format: { format_name: "mov,mp4,m4a,3gp,3g2,mj2", duration: "3.0" },
    });
    expect(parseFfprobeJson(json)).toMatchObject({ hasAudio: true, hasVideo: false, codec: "aac" });
  });

  it("takes the longest stream when the container has no duration, 0 when nothing says", () => {
    const streams = [
      { codec_type: "video", codec_name: "vp8", duration: "9.5" },
      { codec_type: "audio", codec_name: "opus", sample_rate: "48000", channels: 2, duration: "10.25" },
    ];
    expect(
      parseFfprobeJson(JSON.stringify({ streams, format: { format_name: "matroska,webm" } })).durationSeconds,
    ).toBe(10.25);
    const noDuration = [{ codec_type: "audio", codec_name: "opus" }];
    expect(
      parseFfprobeJson(
        JSON.stringify({ streams: noDuration, format: { format_name: "matroska,webm", duration: "N/A" } }),
      ),
    ).toMatchObject({
      durationSeconds: 0,
      sampleRate: null,
      channels: null,
    });
  });

  it("a video without sound has no codec", () => {
    const json = JSON.stringify({
      streams: [{ codec_type: "video", codec_name: "h264" }],
      format: { format_name: "mov", duration: "1" },
    });
    expect(parseFfprobeJson(json)).toMatchObject({ hasAudio: false, hasVideo: true, codec: null });
  });

  it("nothing to play → unsupported_media; garbage → probe_failed", () => {
    const subtitlesOnly = JSON.stringify({
      streams: [{ codec_type: "subtitle", codec_name: "webvtt" }],
      format: { format_name: "webvtt" },
    });
    expect(() => parseFfprobeJson(subtitlesOnly)).toThrow(expect.objectContaining({ code: "unsupported_media" }));
    expect(() => parseFfprobeJson(JSON.stringify({ format: {} }))).toThrow(
      expect.objectContaining({ code: "unsupported_media" }),
    );
    expect(() => parseFfprobeJson("not json")).toThrow(expect.objectContaining({ code: "probe_failed" }));
  });
});

describe("assertDuration / assertHasAudio", () => {
  it("passes within the cap and when the duration is unknown", () => {
    expect(() => assertDuration({ durationSeconds: 10_800 }, 10_800)).not.toThrow();
    expect(() => assertDuration({ durationSeconds: 0 }, 60)).not.toThrow();
  });

  it("throws media_too_long with both durations in the message", () => {
    let err: unknown;
    try {
      assertDuration({ durationSeconds: 3 * 3600 + 725 }, 3 * 3600);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({
      code: "media_too_long",
      status: 422,
      retryable: false,
      message: "That recording is 3 h 12 min long; the limit is 3 h.",
    });
  });

  it("throws unsupported_media without audio", () => {
    expect(() => assertHasAudio({ hasAudio: false })).toThrow(expect.objectContaining({ code: "unsupported_media" }));
    expect(() => assertHasAudio({ hasAudio: true })).not.toThrow();
  });
});

describe("formatting", () => {
  it("durations and sizes", () => {
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(750)).toBe("12 min 30 s");
    expect(formatDuration(600)).toBe("10 min");
    expect(formatDuration(7500)).toBe("2 h 5 min");
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(512 * 1024 * 1024)).toBe("512 MiB");
    expect(formatBytes(1.5 * 1024 ** 3)).toBe("1.5 GiB");
  });

  it("MediaError defaults", () => {
    expect(new MediaError("download_failed", "x")).toMatchObject({
      retryable: true,
      status: 502,
      detail: "",
      name: "MediaError",
    });
    expect(new MediaError("download_failed", "x", { retryable: false }).retryable).toBe(false);
    expect(new MediaError("convert_failed", "x")).toMatchObject({ retryable: false, status: 500 });
  });
});
