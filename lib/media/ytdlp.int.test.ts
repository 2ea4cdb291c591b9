/**
 * downloadPlatformAudio with the REAL yt-dlp binary (.venv/bin/yt-dlp, see scripts/install-yt-dlp.sh).
 * With the generic extractor disabled no extractor accepts a localhost URL, so each test writes an info
 * JSON whose `formats` point at a local node:http server and passes it as `infoJsonPath`
 * (`--load-info-json`): format selection, the filters, the size cap and the download itself are the
 * binary's own, on real speech audio.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { resolveYtDlpBinary, runYtDlp } from "@/lib/captions/ytdlp/run";
import { createOutbound } from "@/lib/http/outbound";
import { parseSourceUrl, type ParsedSource } from "@/lib/sources";

import { convertForAsr } from "./convert";
import { downloadPlatformAudio, type PlatformAudioOptions } from "./download";
import { MediaError } from "./errors";
import { probeMedia } from "./probe";
import { withTempDir } from "./temp";
import { startCanary, type Canary } from "@/test/canary";

import { ffmpeg, type LocalServer, makeSpeechWav, serveFile, SPEECH_TEXT, startLocalServer } from "@/test/media";

const binary = resolveYtDlpBinary();
const source = parseSourceUrl("https://vimeo.com/987654321") as ParsedSource;

let root: string;
let server: LocalServer;
let m4a: string; // audio only
let mp4: string; // video with sound
let speechSeconds = 0;

beforeAll(async () => {
  try {
    await runYtDlp(["--version"], { binary, timeoutMs: 30_000 });
  } catch (err) {
    const detail = err instanceof Error && "detail" in err ? String((err as { detail: unknown }).detail) : String(err);
    throw new Error(
      `yt-dlp is not installed or does not run (${binary}): run scripts/install-yt-dlp.sh first. ${detail}`,
    );
  }
  root = mkdtempSync(path.join(tmpdir(), "media-ytdlp-int-"));
  const wav = await makeSpeechWav(path.join(root, "speech.wav"), SPEECH_TEXT);
  m4a = path.join(root, "speech.m4a");
  mp4 = path.join(root, "speech.mp4");
  await ffmpeg(["-i", wav, "-c:a", "aac", "-b:a", "64k", "-f", "ipod", m4a]);
  await ffmpeg([
    "-f",
    "lavfi",
    "-i",
    "color=c=blue:s=320x240:r=10",
    "-i",
    wav,
    "-map",
    "0:v",
    "-map",
    "1:a",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-c:a",
    "aac",
    "-shortest",
    mp4,
  ]);
  speechSeconds = (await probeMedia(wav)).durationSeconds;

  server = await startLocalServer();
  server.route("/cdn/audio.m4a", serveFile(m4a, "audio/mp4"));
  server.route("/cdn/video.mp4", serveFile(mp4, "video/mp4"));
  server.route("/cdn/ranged.m4a", (req, res) => {
    // Honours "Range: bytes=N-", as CDNs do: what yt-dlp would use to resume a partial file.
    const body = readFileSync(m4a);
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1] ?? Number.NaN);
    if (Number.isFinite(from)) {
      if (from >= body.length) return void res.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
      res.writeHead(206, {
        "content-type": "audio/mp4",
        "content-length": String(body.length - from),
        "content-range": `bytes ${from}-${body.length - 1}/${body.length}`,
      });
      return void res.end(body.subarray(from));
    }
    res
      .writeHead(200, { "content-type": "audio/mp4", "content-length": String(body.length), "accept-ranges": "bytes" })
      .end(body);
  });
  server.route("/cdn/chunked.m4a", serveFile(m4a, "audio/mp4", { chunked: true }));
  server.route("/cdn/slow.m4a", (_req, res) => {
    res.writeHead(200, { "content-type": "audio/mp4" });
    const chunk = Buffer.alloc(4096);
    const timer = setInterval(() => res.write(chunk), 20); // ~200 KB/s, endless
    res.on("close", () => clearInterval(timer));
  });
});

afterAll(async () => {
  await outbound.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

afterEach(() => {
  server.hits.length = 0;
});

interface Format {
  id: string;
  path: string;
  ext: string;
  acodec: string;
  vcodec: string;
  abr?: number;
  tbr?: number;
  filesize?: number;
}

const AUDIO: Format = {
  id: "audio-aac",
  path: "/cdn/audio.m4a",
  ext: "m4a",
  acodec: "mp4a.40.2",
  vcodec: "none",
  abr: 64,
  tbr: 64,
};
const VIDEO: Format = {
  id: "http-360p",
  path: "/cdn/video.mp4",
  ext: "mp4",
  acodec: "mp4a.40.2",
  vcodec: "avc1.64001e",
  tbr: 400,
};

/** An info JSON as a Vimeo extraction would give, with formats served by the local server. */
function infoJson(formats: Format[], extra: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(path.join(root, "info-"));
  const file = path.join(dir, "info.json");
  const info = {
    id: "987654321",
    title: "A short talk",
    extractor: "vimeo",
    extractor_key: "Vimeo",
    webpage_url: "https://vimeo.com/987654321",
    original_url: "https://vimeo.com/987654321",
    duration: Math.round(speechSeconds),
    formats: formats.map((f) => ({
      format_id: f.id,
      url: `${server.origin}${f.path}`,
      ext: f.ext,
      acodec: f.acodec,
      vcodec: f.vcodec,
      abr: f.abr,
      tbr: f.tbr,
      filesize: f.filesize,
      protocol: "http",
    })),
    ...extra,
  };
  writeFileSync(file, JSON.stringify(info));
  return file;
}

/** The app's guard with the test fakes' address (127.0.0.1, and only that) allowed, as OUTBOUND_ALLOW_PRIVATE_HOSTS does. */
const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1", defaults: { retries: 0 } });

function opts(infoJsonPath: string, extra: Partial<PlatformAudioOptions> = {}): PlatformAudioOptions {
  return {
    binary,
    infoJsonPath,
    maxBytes: 50 * 1024 * 1024,
    maxDurationSeconds: 3 * 3600,
    timeoutMs: 60_000,
    outbound,
    ...extra,
  };
}

function destDir(): string {
  return mkdtempSync(path.join(root, "dest-"));
}

describe("downloadPlatformAudio on the real yt-dlp", () => {
  it("picks the audio-only format, downloads it whole, and it probes and converts", async () => {
    const dir = destDir();
    const file = await downloadPlatformAudio(source, dir, opts(infoJson([VIDEO, AUDIO])));
    expect(file).toEqual({
      path: path.join(dir, "audio.m4a"),
      bytes: statSync(m4a).size,
      durationSeconds: Math.round(speechSeconds),
    });
    expect(readFileSync(file.path).equals(readFileSync(m4a))).toBe(true);
    expect(server.hits.map((h) => h.split("?")[0])).toEqual(["/cdn/audio.m4a"]);
    expect(readdirSync(dir)).toEqual(["audio.m4a"]);

    const probe = await probeMedia(file.path);
    expect(probe).toMatchObject({ hasAudio: true, hasVideo: false, codec: "aac" });
    expect(probe.durationSeconds).toBeCloseTo(speechSeconds, 0);
    const asr = await convertForAsr(file.path, path.join(dir, "asr"));
    expect(await probeMedia(asr.path)).toMatchObject({ channels: 1, codec: "opus" });
  });

  it("falls back to the best combined format when there is no audio-only one", async () => {
    const dir = destDir();
    const file = await downloadPlatformAudio(source, dir, opts(infoJson([VIDEO])));
    expect(file.path).toBe(path.join(dir, "audio.mp4"));
    expect(await probeMedia(file.path)).toMatchObject({ hasAudio: true, hasVideo: true });
  });

  it("an item without a duration passes the filter (the probe measures it)", async () => {
    const dir = destDir();
    const file = await downloadPlatformAudio(
      source,
      dir,
      opts(infoJson([AUDIO], { duration: null }), { maxDurationSeconds: 1 }),
    );
    expect(file).toMatchObject({ bytes: statSync(m4a).size, durationSeconds: null });
  });

  it("refuses an item longer than the cap before downloading anything (media_too_long)", async () => {
    const dir = destDir();
    const err = await downloadPlatformAudio(source, dir, opts(infoJson([AUDIO], { duration: 4 * 3600 }))).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({
      code: "media_too_long",
      retryable: false,
      message: "That recording is 4 h long; the limit is 3 h.",
    });
    expect(server.hits).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a live stream (unsupported_media), downloading nothing", async () => {
    const dir = destDir();
    await expect(
      downloadPlatformAudio(source, dir, opts(infoJson([AUDIO], { is_live: true, duration: null }))),
    ).rejects.toMatchObject({
      code: "unsupported_media",
      message: expect.stringMatching(/Live streams/),
    });
    expect(server.hits).toEqual([]);
  });

  it("refuses a file whose announced size is over the cap (media_too_large)", async () => {
    const dir = destDir();
    const err = await downloadPlatformAudio(source, dir, opts(infoJson([AUDIO]), { maxBytes: 10_000 })).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: "MediaError", code: "media_too_large", retryable: false });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("stops a download without Content-Length once the directory passes the cap", async () => {
    const dir = destDir();
    const err = await downloadPlatformAudio(
      source,
      dir,
      opts(infoJson([{ ...AUDIO, path: "/cdn/slow.m4a" }]), { maxBytes: 100_000, sizeCheckIntervalMs: 50 }),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "MediaError", code: "media_too_large" });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("checks the finished file too (a fast chunked download between two checks)", async () => {
    const dir = destDir();
    const size = statSync(m4a).size;
    const err = await downloadPlatformAudio(
      source,
      dir,
      opts(infoJson([{ ...AUDIO, path: "/cdn/chunked.m4a" }]), { maxBytes: size - 1, sizeCheckIntervalMs: 60_000 }),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "media_too_large" });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a 404 from the CDN is the platform's video_unavailable (SourceError), no file left", async () => {
    const dir = destDir();
    const err = await downloadPlatformAudio(source, dir, opts(infoJson([{ ...AUDIO, path: "/cdn/gone.m4a" }]))).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: "YtDlpError", code: "video_unavailable", status: 404 });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("leaves what was already in the directory alone: not counted, not deleted", async () => {
    const size = statSync(m4a).size;
    const dir = destDir();
    writeFileSync(path.join(dir, "earlier.bin"), Buffer.alloc(300_000));
    const file = await downloadPlatformAudio(
      source,
      dir,
      opts(infoJson([AUDIO]), { maxBytes: size + 1, sizeCheckIntervalMs: 20 }),
    );
    expect(file.bytes).toBe(size);
    expect(readdirSync(dir).sort()).toEqual(["audio.m4a", "earlier.bin"]);

    const failing = destDir();
    writeFileSync(path.join(failing, "earlier.bin"), "x");
    await expect(
      downloadPlatformAudio(source, failing, opts(infoJson([{ ...AUDIO, path: "/cdn/gone.m4a" }]))),
    ).rejects.toMatchObject({ code: "video_unavailable" });
    expect(readdirSync(failing)).toEqual(["earlier.bin"]);
  });

  it("a stale audio file of the same name is replaced, never resumed or returned as the download", async () => {
    const size = statSync(m4a).size;
    for (const stale of [Buffer.from("stale"), Buffer.alloc(size), Buffer.alloc(size + 10)]) {
      const dir = destDir();
      writeFileSync(path.join(dir, "audio.m4a"), stale);
      server.hits.length = 0;
      const file = await downloadPlatformAudio(source, dir, opts(infoJson([{ ...AUDIO, path: "/cdn/ranged.m4a" }])));
      expect(readFileSync(file.path).equals(readFileSync(m4a))).toBe(true);
      expect(server.hits).toEqual(["/cdn/ranged.m4a"]);
    }
  });

  it("an abort kills yt-dlp and rejects with the caller's reason; withTempDir removes the directory", async () => {
    const ac = new AbortController();
    const reason = new Error("job cancelled");
    let tmp = "";
    const job = withTempDir(
      "ytdlp",
      async (dir) => {
        tmp = dir;
        return downloadPlatformAudio(
          source,
          dir,
          opts(infoJson([{ ...AUDIO, path: "/cdn/slow.m4a" }]), { signal: ac.signal }),
        );
      },
      { signal: ac.signal },
    );
    // Abort once bytes are flowing.
    for (let i = 0; i < 200 && !(tmp && existsSync(path.join(tmp, "audio.m4a"))); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(path.join(tmp, "audio.m4a"))).toBe(true);
    ac.abort(reason);
    await expect(job).rejects.toBe(reason);
    expect(existsSync(tmp)).toBe(false);
  });
});

describe("every connection yt-dlp makes passes the outbound guard (a canary outside the allow list)", () => {
  // Only 127.0.0.1 is allowed (the fakes); the canary listens on 127.0.0.2, another loopback address.
  let canary: Canary;
  beforeAll(async () => {
    canary = await startCanary();
    server.route(
      "/cdn/to-canary.m4a",
      (_req, res) => void res.writeHead(302, { location: `${canary.origin}/audio.m4a` }).end(),
    );
    server.route(
      "/cdn/to-canary-https.m4a",
      (_req, res) => void res.writeHead(302, { location: `https://127.0.0.2:${canary.port}/audio.m4a` }).end(),
    );
  });
  afterAll(async () => {
    await canary?.close();
  });

  it.each([
    ["a format URL on the canary", () => `${canary.origin}/audio.m4a`],
    ["a format URL on the canary by the name localhost", () => `http://localhost:${canary.port}/audio.m4a`],
    ["an https format URL on the canary (CONNECT)", () => `https://127.0.0.2:${canary.port}/audio.m4a`],
    ["a format URL that redirects to the canary", () => `${server.origin}/cdn/to-canary.m4a`],
    ["a format URL that redirects to the canary over https", () => `${server.origin}/cdn/to-canary-https.m4a`],
  ])("%s: nothing reaches it, the job fails with a clear error and leaves no file", async (_name, url) => {
    const info = JSON.parse(readFileSync(infoJson([AUDIO]), "utf8")) as { formats: { url: string }[] };
    (info.formats[0] as { url: string }).url = url();
    const file = path.join(mkdtempSync(path.join(root, "canary-info-")), "info.json");
    writeFileSync(file, JSON.stringify(info));
    const dir = destDir();

    const err = await downloadPlatformAudio(source, dir, opts(file)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({
      code: "download_failed",
      message: "The platform pointed us to an address we do not connect to.",
    });
    expect(readdirSync(dir)).toEqual([]);
    expect(canary.connections()).toBe(0);
  });
});

describe("HLS: the playlist's segments pass the guard too", () => {
  let canary: Canary;
  beforeAll(async () => {
    canary = await startCanary();
    // An HLS playlist on the allowed fake whose one segment is on the canary.
    server.route(
      "/cdn/to-canary.m3u8",
      (_req, res) =>
        void res
          .writeHead(200, { "content-type": "application/vnd.apple.mpegurl" })
          .end(
            `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${canary.origin}/seg0.ts\n#EXT-X-ENDLIST\n`,
          ),
    );
  });
  afterAll(async () => {
    await canary?.close();
  });

  it("takes an HTTP format over a better RTMP one (rtmpdump would connect by itself), never touching the RTMP server", async () => {
    const info = JSON.parse(readFileSync(infoJson([AUDIO]), "utf8")) as { formats: Record<string, unknown>[] };
    const http = info.formats[0] as Record<string, unknown>;
    info.formats = [
      http,
      {
        ...http,
        format_id: "rtmp-audio",
        abr: 320,
        tbr: 320,
        url: `rtmp://127.0.0.2:${canary.port}/live/audio`,
        protocol: "rtmp",
      },
    ];
    const file = path.join(mkdtempSync(path.join(root, "rtmp-info-")), "info.json");
    writeFileSync(file, JSON.stringify(info));
    const got = await downloadPlatformAudio(source, destDir(), opts(file));
    expect(statSync(got.path).size).toBe(statSync(m4a).size);
    expect(canary.connections()).toBe(0);
  });

  it("an HLS format on the allowed fake whose segment is on the canary: the playlist is read, the segment never", async () => {
    const info = JSON.parse(readFileSync(infoJson([AUDIO]), "utf8")) as { formats: Record<string, unknown>[] };
    const audio = info.formats[0] as Record<string, unknown>;
    info.formats = [
      { ...audio, format_id: "hls-audio", ext: "mp4", url: `${server.origin}/cdn/to-canary.m3u8`, protocol: "m3u8" },
    ];
    const file = path.join(mkdtempSync(path.join(root, "hls-info-")), "info.json");
    writeFileSync(file, JSON.stringify(info));
    const dir = destDir();
    const err = await downloadPlatformAudio(source, dir, opts(file)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(readdirSync(dir)).toEqual([]);
    expect(server.hits).toContain("/cdn/to-canary.m3u8");
    expect(canary.connections()).toBe(0);
  });
});
