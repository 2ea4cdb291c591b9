import { describe, expect, it } from "vitest";
import {
  allowedContentType,
  displayFilename,
  isObjectPath,
  newObjectPath,
  parseObjectPath,
  safeFilename,
} from "@/lib/uploads/objects";
import { parseEnv } from "@/lib/env";

describe("upload object names", () => {
  it("makes filenames safe as one path segment, a URL part and an S3 key", () => {
    expect(safeFilename("interview.wav")).toBe("interview.wav");
    expect(safeFilename("../../etc/passwd")).toBe("passwd");
    expect(safeFilename("C:\\Users\\me\\Talk (final).mp3")).toBe("Talk_final.mp3");
    expect(safeFilename("Café déjà vu.m4a")).toBe("Cafe_deja_vu.m4a");
    expect(safeFilename(".hidden")).toBe("hidden");
    expect(safeFilename("..")).toBe("upload");
    expect(safeFilename("录音.wav")).toBe("wav");
    expect(safeFilename("   ")).toBe("upload");
    expect(safeFilename("a?b#c%2F&d=e.ogg")).toBe("a_b_c_2F_d_e.ogg");
    const long = safeFilename(`${"x".repeat(300)}.flac`);
    expect(long).toHaveLength(120);
    expect(long.endsWith(".flac")).toBe(true);
  });

  it("keeps the given name for display without control characters", () => {
    expect(displayFilename("My talk\u0000\n.wav")).toBe("My talk.wav");
    expect(displayFilename("x".repeat(300))).toHaveLength(255);
  });

  it("makes object paths uploads/<user>/<random>/<name> and accepts only that shape", () => {
    const a = newObjectPath("cmuser123", "../Talk.wav");
    expect(a).toMatch(/^uploads\/cmuser123\/[A-Za-z0-9_-]{22}\/Talk\.wav$/);
    expect(newObjectPath("cmuser123", "Talk.wav")).not.toBe(a);
    expect(isObjectPath(a)).toBe(true);
    expect(parseObjectPath(`upload:${a}`)).toBe(a);
    for (const bad of [
      "uploads/u/../x.wav",
      "/uploads/u/AAAAAAAAAAAAAAAAAAAAAA/x.wav",
      "uploads/u/AAAAAAAAAAAAAAAAAAAAAA/..",
      "uploads/u/AAAAAAAAAAAAAAAAAAAAAA/.x",
      "uploads/u/AAAAAAAAAAAAAAAAAAAAAA/a/b.wav",
      "uploads/u/short/x.wav",
      "other/u/AAAAAAAAAAAAAAAAAAAAAA/x.wav",
      "uploads/u/AAAAAAAAAAAAAAAAAAAAAA/x y.wav",
    ]) {
      expect(isObjectPath(bad), bad).toBe(false);
    }
  });

  it("accepts only the allow-listed media types, case-insensitively, without parameters", () => {
    expect(allowedContentType("audio/wav")).toBe("audio/wav");
    expect(allowedContentType(" Audio/MPEG ")).toBe("audio/mpeg");
    expect(allowedContentType("video/x-matroska")).toBe("video/x-matroska");
    for (const bad of [
      "audio/mp3",
      "audio/wav; codecs=1",
      "text/plain",
      "application/octet-stream",
      "image/png",
      "audio/*",
      "",
    ]) {
      expect(allowedContentType(bad), bad).toBeNull();
    }
  });
});

describe("upload settings", () => {
  it("defaults: 24 h retention, 2 GiB - 1 cap, local storage", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      UPLOAD_RETENTION_HOURS: 24,
      UPLOAD_MAX_BYTES: 2147483647,
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: false,
    });
    expect(env.S3_BUCKET).toBeUndefined();
    expect(env.UPLOAD_SECRET).toBeUndefined();
  });

  it("parses and names bad values", () => {
    expect(
      parseEnv({ UPLOAD_MAX_BYTES: "1024", S3_FORCE_PATH_STYLE: "true", S3_ENDPOINT: "http://127.0.0.1:9000" }),
    ).toMatchObject({
      UPLOAD_MAX_BYTES: 1024,
      S3_FORCE_PATH_STYLE: true,
    });
    expect(() => parseEnv({ UPLOAD_MAX_BYTES: "2147483648" })).toThrow(/UPLOAD_MAX_BYTES/);
    expect(() => parseEnv({ UPLOAD_RETENTION_HOURS: "0" })).toThrow(/UPLOAD_RETENTION_HOURS/);
    expect(() => parseEnv({ UPLOAD_SECRET: "short" })).toThrow(/UPLOAD_SECRET/);
    expect(() => parseEnv({ S3_ENDPOINT: "not a url" })).toThrow(/S3_ENDPOINT/);
  });
});
