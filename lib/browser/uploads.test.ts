import { describe, expect, it } from "vitest";
import { ALLOWED_CONTENT_TYPES } from "@/lib/uploads/objects";
import { formatBytes, isAudioOrVideo, uploadContentType } from "@/lib/browser/uploads";
import { jobStageLabel, jobStatusLabel, sourceHref, watchJobHref } from "@/lib/browser/transcripts";

describe("uploadContentType", () => {
  it("keeps the browser's type, mapping other names to the API's", () => {
    expect(uploadContentType({ name: "a.wav", type: "audio/wav" })).toBe("audio/wav");
    expect(uploadContentType({ name: "a.mp3", type: "audio/mp3" })).toBe("audio/mpeg");
    expect(uploadContentType({ name: "a.flac", type: "audio/x-flac" })).toBe("audio/flac");
    expect(uploadContentType({ name: "a.wav", type: "Audio/Wave" })).toBe("audio/wav");
  });

  it("falls back to the extension, then to a type the API refuses with its own message", () => {
    expect(uploadContentType({ name: "talk.M4A", type: "" })).toBe("audio/mp4");
    expect(uploadContentType({ name: "clip.mkv", type: "" })).toBe("video/x-matroska");
    expect(uploadContentType({ name: "notes", type: "" })).toBe("application/octet-stream");
    expect(uploadContentType({ name: "notes.txt", type: "text/plain" })).toBe("text/plain");
  });

  it("only ever guesses types the API accepts", () => {
    const extensions = [
      "mp3",
      "m4a",
      "wav",
      "ogg",
      "oga",
      "opus",
      "weba",
      "flac",
      "aac",
      "mp4",
      "m4v",
      "webm",
      "mov",
      "mkv",
    ];
    for (const extension of extensions)
      expect(ALLOWED_CONTENT_TYPES).toContain(uploadContentType({ name: `x.${extension}`, type: "" }));
    for (const alias of [
      "audio/mp3",
      "audio/x-mp3",
      "audio/mpeg3",
      "audio/wave",
      "audio/vnd.wave",
      "audio/x-flac",
      "audio/m4a",
      "audio/x-aac",
      "audio/x-ogg",
      "video/x-m4v",
    ]) {
      expect(ALLOWED_CONTENT_TYPES).toContain(uploadContentType({ name: "x", type: alias }));
    }
  });
});

describe("display", () => {
  it("formats sizes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3.0 GB");
  });

  it("names a job's status and stage", () => {
    expect(jobStatusLabel({ status: "queued", error: null })).toBe("Queued");
    expect(jobStatusLabel({ status: "running", error: null })).toBe("Running");
    expect(jobStatusLabel({ status: "done", error: null })).toBe("Done");
    expect(
      jobStatusLabel({
        status: "error",
        error: { code: "no_speech", message: "No speech was recognised in this audio." },
      }),
    ).toBe("Failed: No speech was recognised in this audio.");
    expect(jobStageLabel("recognising speech")).toBe("Recognising speech");
    expect(jobStageLabel("fetching_audio")).toBe("Fetching audio");
    expect(jobStageLabel(null)).toBe("");
    // Step names that are not words a user would use are said in plain words.
    expect(jobStageLabel("probing")).toBe("Reading the file");
    expect(jobStageLabel("uploading audio")).toBe("Sending the audio to speech recognition");
  });

  it("links web sources only, and jobs to the Transcribe page", () => {
    expect(sourceHref("https://www.youtube.com/watch?v=x")).toBe("https://www.youtube.com/watch?v=x");
    expect(sourceHref("upload:uploads/u/abc/a.wav")).toBeNull();
    expect(sourceHref("javascript:alert(1)")).toBeNull();
    expect(watchJobHref("cm123")).toBe("/dashboard?job=cm123");
  });
});

describe("isAudioOrVideo", () => {
  it("takes audio and video by type or, without one, by extension; refuses the rest", () => {
    expect(isAudioOrVideo({ name: "talk.mp3", type: "audio/mpeg" })).toBe(true);
    expect(isAudioOrVideo({ name: "clip.mkv", type: "" })).toBe(true);
    expect(isAudioOrVideo({ name: "notes.txt", type: "text/plain" })).toBe(false);
    expect(isAudioOrVideo({ name: "notes.txt", type: "" })).toBe(false);
    expect(isAudioOrVideo({ name: "photo.mp3", type: "image/png" })).toBe(false);
  });
});
