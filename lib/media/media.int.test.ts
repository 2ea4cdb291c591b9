/**
 * The audio steps with the real ffmpeg/ffprobe on real speech (espeak-ng), in every container we
 * expect: magic bytes, probe, conversion to mono 16 kHz, the input guards, and the whole
 * download → probe → convert chain from a local HTTP server inside withTempDir.
 */
import {
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  closeSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createOutbound } from "@/lib/http/outbound";

import { buildConvertArgs, convertForAsr, detectAsrCodec } from "./convert";
import { downloadAudioUrl } from "./download";
import { MediaError } from "./errors";
import { SNIFF_BYTES, sniffMediaType } from "./magic";
import { assertDuration, assertHasAudio, probeMedia } from "./probe";
import { withTempDir } from "./temp";
import {
  ffmpeg,
  type LocalServer,
  makeSample,
  makeSpeechWav,
  SAMPLES,
  serveFile,
  SPEECH_TEXT,
  startLocalServer,
} from "@/test/media";

let root: string;
let samplesDir: string;
let wav: string;
let wavDuration = 0;
const files = new Map<string, string>();
let server: LocalServer;
const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1", defaults: { retries: 0 } });

function head(file: string): Buffer {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * The sample rate the Opus encoder was fed (OpusHead, bytes 12-15). ffprobe always says 48000 for Opus:
 * that is the decoder's output rate, whatever the encoded bandwidth.
 */
function opusInputRate(file: string): number {
  const buf = head(file);
  const at = buf.indexOf("OpusHead", 0, "latin1");
  if (at === -1) throw new Error(`${file}: no OpusHead`);
  return buf.readUInt32LE(at + 12);
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "media-int-"));
  samplesDir = mkdtempSync(path.join(root, "samples-"));
  wav = await makeSpeechWav(path.join(samplesDir, "speech.wav"), SPEECH_TEXT);
  // 16-bit PCM: the exact duration from the size.
  const { size } = statSync(wav);
  wavDuration = (size - 44) / 2 / 22_050;
  await Promise.all(SAMPLES.map(async (s) => files.set(s.name, await makeSample(wav, samplesDir, s))));
  server = await startLocalServer();
});

afterAll(async () => {
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("the speech fixture", () => {
  it("is a few seconds of real speech", () => {
    expect(wavDuration).toBeGreaterThan(5);
    expect(wavDuration).toBeLessThan(20);
  });
});

describe("sniffMediaType on files made by ffmpeg", () => {
  it("WAV from espeak-ng", () => {
    expect(sniffMediaType(head(wav))).toBe("audio/wav");
  });

  it.each(SAMPLES.map((s) => [s.name, s.mime] as const))("%s → %s", (name, mime) => {
    expect(sniffMediaType(head(files.get(name) as string))).toBe(mime);
  });

  it("AMR (no encoder here: frames written by hand) is what ffprobe calls amr too", async () => {
    // #!AMR\n then 12.2 kbit/s frames: a one-byte header (0x3C) and 31 bytes of payload each.
    const frames = Buffer.alloc(250 * 32);
    for (let i = 0; i < 250; i++) frames[i * 32] = 0x3c;
    const amr = path.join(samplesDir, "hand.amr");
    writeFileSync(amr, Buffer.concat([Buffer.from("#!AMR\n", "latin1"), frames]));
    expect(sniffMediaType(head(amr))).toBe("audio/amr");
    const probe = await probeMedia(amr);
    expect(probe).toMatchObject({ formatName: "amr", hasAudio: true, codec: "amr_nb" });
    expect(probe.durationSeconds).toBeCloseTo(5, 0);
  });
});

describe("probeMedia", () => {
  it("WAV: the exact duration", async () => {
    const p = await probeMedia(wav);
    expect(p).toMatchObject({
      formatName: "wav",
      hasAudio: true,
      hasVideo: false,
      codec: "pcm_s16le",
      sampleRate: 22050,
      channels: 1,
    });
    expect(p.durationSeconds).toBeCloseTo(wavDuration, 2);
  });

  it.each(SAMPLES.map((s) => [s.name, s] as const))("%s: format, audio, duration", async (name, sample) => {
    const p = await probeMedia(files.get(name) as string);
    expect(p.formatName.split(",")).toContain(sample.format);
    expect(p.hasAudio).toBe(true);
    expect(p.hasVideo).toBe(sample.video === true);
    expect(p.codec).toBeTruthy();
    // Encoder delay and frame padding: within a fraction of a second of the source. Raw ADTS AAC has no
    // index: ffprobe estimates its duration from the bitrate, less precisely.
    expect(Math.abs(p.durationSeconds - wavDuration)).toBeLessThan(sample.format === "aac" ? 0.2 * wavDuration : 0.5);
  });

  it("a text file renamed .mp3 is unsupported_media", async () => {
    const fake = path.join(samplesDir, "notes.mp3");
    writeFileSync(fake, "These are my meeting notes, not a recording.\n".repeat(50));
    await expect(probeMedia(fake)).rejects.toMatchObject({
      name: "MediaError",
      code: "unsupported_media",
      retryable: false,
    });
    await expect(convertForAsr(fake, path.join(root, "notes-out"))).rejects.toMatchObject({
      code: "unsupported_media",
    });
    expect(existsSync(path.join(root, "notes-out.ogg"))).toBe(false);
  });

  it("an HTML page saved as .m4a is unsupported_media", async () => {
    const fake = path.join(samplesDir, "page.m4a");
    writeFileSync(fake, "<!doctype html><html><body>Access denied</body></html>");
    await expect(probeMedia(fake)).rejects.toMatchObject({ code: "unsupported_media" });
  });

  it("an HLS playlist cannot make ffprobe or ffmpeg fetch anything", async () => {
    server.hits.length = 0;
    server.route("/secret.wav", serveFile(wav, "audio/wav"));
    const playlist = path.join(samplesDir, "playlist.mp3");
    writeFileSync(
      playlist,
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${server.origin}/secret.wav\n#EXT-X-ENDLIST\n`,
    );
    await expect(probeMedia(playlist)).rejects.toMatchObject({ code: "unsupported_media" });
    await expect(convertForAsr(playlist, path.join(root, "playlist-out"))).rejects.toMatchObject({
      code: "unsupported_media",
    });
    // And one pointing at a local file: no demuxer for playlists, so no reading other files.
    const local = path.join(samplesDir, "local.m3u8");
    writeFileSync(local, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile:${wav}\n#EXT-X-ENDLIST\n`);
    await expect(probeMedia(local)).rejects.toMatchObject({ code: "unsupported_media" });
    const concat = path.join(samplesDir, "list.ffconcat");
    writeFileSync(concat, `ffconcat version 1.0\nfile '${wav}'\n`);
    await expect(probeMedia(concat)).rejects.toMatchObject({ code: "unsupported_media" });
    expect(server.hits).toEqual([]);
  });

  it("a video without sound: probe says so, assertHasAudio and convert refuse it", async () => {
    const silent = path.join(samplesDir, "silent.mp4");
    await ffmpeg([
      "-f",
      "lavfi",
      "-i",
      "color=c=red:s=160x120:r=5:d=2",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      silent,
    ]);
    const p = await probeMedia(silent);
    expect(p).toMatchObject({ hasAudio: false, hasVideo: true, codec: null });
    expect(() => assertHasAudio(p)).toThrow(expect.objectContaining({ code: "unsupported_media" }));
    await expect(convertForAsr(silent, path.join(root, "silent-out"))).rejects.toMatchObject({
      code: "unsupported_media",
    });
  });

  it("assertDuration against a real probe", async () => {
    const p = await probeMedia(wav);
    expect(() => assertDuration(p, 60)).not.toThrow();
    expect(() => assertDuration(p, 3)).toThrow(expect.objectContaining({ code: "media_too_long" }));
  });

  it("a missing file or a missing ffprobe is probe_failed", async () => {
    await expect(probeMedia(path.join(root, "nope.mp3"))).rejects.toMatchObject({ code: "probe_failed" });
    await expect(probeMedia(wav, { ffprobePath: "/nonexistent/ffprobe" })).rejects.toMatchObject({
      code: "probe_failed",
      detail: expect.stringMatching(/not found/),
    });
  });

  it("a file name that looks like a protocol or an option is just a file", async () => {
    for (const name of ["http:x.mp3", "-i.mp3", "concat:a|b.mp3"]) {
      const odd = path.join(samplesDir, name);
      await ffmpeg(["-i", wav, "-c:a", "libmp3lame", `file:${odd}`]);
      expect(await probeMedia(odd)).toMatchObject({ formatName: "mp3", hasAudio: true });
      const out = await convertForAsr(odd, path.join(root, `odd-${name}`));
      expect(out.path).toBe(path.join(root, `odd-${path.parse(name).name}.ogg`));
    }
  });
});

describe("convertForAsr", () => {
  /** 5 minutes of tone: long enough for progress lines, a timeout and an abort mid-way. */
  let long = "";
  beforeAll(async () => {
    long = path.join(samplesDir, "long.mp3");
    await ffmpeg([
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=300:sample_rate=16000:duration=300",
      "-ac",
      "1",
      "-c:a",
      "libmp3lame",
      "-b:a",
      "32k",
      long,
    ]);
  });

  it("this ffmpeg has libopus", async () => {
    expect(await detectAsrCodec()).toBe("opus");
  });

  it.each(["speech.mp3", "speech.ogg", "speech.m4a", "speech.mp4", "speech.webm", "speech.mkv", "speech.wma"])(
    "%s → mono 16 kHz Opus with the same duration",
    async (name) => {
      const out = await convertForAsr(files.get(name) as string, path.join(root, `asr-${name}`));
      expect(out).toMatchObject({
        path: path.join(root, `asr-${path.parse(name).name}.ogg`),
        codec: "opus",
        mimeType: "audio/ogg",
      });
      expect(out.bytes).toBe(statSync(out.path).size);
      const p = await probeMedia(out.path);
      expect(out.durationSeconds).not.toBeNull();
      expect(Math.abs((out.durationSeconds as number) - p.durationSeconds)).toBeLessThan(0.1);
      expect(p).toMatchObject({ formatName: "ogg", codec: "opus", channels: 1, hasVideo: false });
      expect(p.sampleRate).toBe(48000); // Opus decodes at 48 kHz, always
      expect(opusInputRate(out.path)).toBe(16000);
      expect(Math.abs(p.durationSeconds - wavDuration)).toBeLessThan(0.5);
      expect(sniffMediaType(head(out.path))).toBe("audio/ogg");
    },
  );

  it("a recording that does not state its duration (live WebM, as MediaRecorder makes): probe says 0, conversion measures it", async () => {
    const live = path.join(samplesDir, "recorder.webm");
    await ffmpeg(["-i", wav, "-c:a", "libopus", "-b:a", "32k", "-live", "1", "-f", "webm", live]);
    const p = await probeMedia(live);
    expect(p).toMatchObject({ durationSeconds: 0, hasAudio: true, codec: "opus" });
    expect(() => assertDuration(p, 1)).not.toThrow(); // unknown passes: maxSeconds is the backstop
    const out = await convertForAsr(live, path.join(root, "recorder-asr"), { maxSeconds: 3600 });
    expect(Math.abs((out.durationSeconds as number) - wavDuration)).toBeLessThan(0.2);
    const capped = await convertForAsr(live, path.join(root, "recorder-capped"), { maxSeconds: 4 });
    expect(capped.durationSeconds).toBeCloseTo(4, 1);
  });

  it("MP3 fallback: mono 16 kHz", async () => {
    const out = await convertForAsr(wav, path.join(root, "asr-fallback.ogg"), { codec: "mp3" });
    expect(out).toMatchObject({ path: path.join(root, "asr-fallback.mp3"), codec: "mp3", mimeType: "audio/mpeg" });
    const p = await probeMedia(out.path);
    expect(p).toMatchObject({ formatName: "mp3", codec: "mp3", channels: 1, sampleRate: 16000 });
    expect(Math.abs(p.durationSeconds - wavDuration)).toBeLessThan(0.5);
  });

  it("speech at 24 kbit/s: a few KB per second", async () => {
    const out = await convertForAsr(wav, path.join(root, "size"));
    expect(out.bytes / wavDuration).toBeLessThan(4000);
    expect(out.bytes / wavDuration).toBeGreaterThan(1000);
  });

  it("reports progress from 0 to 1 against the known duration", async () => {
    const p = await probeMedia(long);
    const seen: number[] = [];
    await convertForAsr(long, path.join(root, "long-out"), {
      durationSeconds: p.durationSeconds,
      onProgress: (f) => seen.push(f),
    });
    expect(seen[seen.length - 1]).toBe(1);
    expect(seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= (seen[i - 1] as number)))).toBe(true);
  });

  it("maxSeconds stops the output", async () => {
    const out = await convertForAsr(wav, path.join(root, "cut"), { maxSeconds: 2 });
    const p = await probeMedia(out.path);
    expect(p.durationSeconds).toBeGreaterThan(1.8);
    expect(p.durationSeconds).toBeLessThan(2.2);
  });

  it("a timeout kills ffmpeg: retryable convert_failed, no output left", async () => {
    const err = await convertForAsr(long, path.join(root, "timeout-out"), { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({ code: "convert_failed", retryable: true });
    expect(existsSync(path.join(root, "timeout-out.ogg"))).toBe(false);
    expect(readdirSync(root).filter((f) => f.endsWith(".part"))).toEqual([]);
  });

  // Aborted at ffmpeg's first report of progress mid-way, so certainly while it runs: a fixed delay could come
  // before the folder is made on a loaded machine, when the work rightly never starts.
  it("an abort kills ffmpeg and rejects with the caller's reason; withTempDir removes everything", async () => {
    const ac = new AbortController();
    let tmp = "";
    const reason = new Error("user cancelled");
    const job = withTempDir(
      "convert",
      async (dir, tf) => {
        tmp = dir;
        return convertForAsr(long, tf.path("asr"), {
          signal: ac.signal,
          durationSeconds: 300,
          onProgress: (fraction) => {
            if (fraction < 1) ac.abort(reason);
          },
        });
      },
      { root, signal: ac.signal },
    );
    await expect(job).rejects.toBe(reason);
    expect(tmp).not.toBe("");
    expect(existsSync(tmp)).toBe(false);
  });

  it("never overwrites its input; a missing ffmpeg is convert_failed", async () => {
    const input = path.join(samplesDir, "same.ogg");
    await ffmpeg(["-i", wav, "-c:a", "libopus", input]);
    await expect(convertForAsr(input, input)).rejects.toThrow(/overwrite the input/);
    await expect(convertForAsr(wav, path.join(root, "x"), { ffmpegPath: "/nonexistent/ffmpeg" })).rejects.toMatchObject(
      { code: "convert_failed" },
    );
  });

  it("the argument vector: guarded input, first audio stream, no metadata, mono 16 kHz", () => {
    const args = buildConvertArgs("/in/a b.mp4", "/out/asr.ogg", "opus");
    expect(args.slice(0, 2)).toEqual(["-nostdin", "-hide_banner"]);
    const i = args.indexOf("-i");
    expect(args.indexOf("-protocol_whitelist")).toBeLessThan(i);
    expect(args[args.indexOf("-protocol_whitelist") + 1]).toBe("file,pipe");
    expect(args.indexOf("-format_whitelist")).toBeLessThan(i);
    expect(args[i + 1]).toBe("file:/in/a b.mp4");
    expect(args.join(" ")).toContain("-map 0:a:0 -vn -sn -dn -map_metadata -1 -ac 1 -ar 16000 -c:a libopus -b:a 24k");
    expect(args[args.length - 1]).toBe("file:/out/asr.ogg");
  });
});

describe("download → probe → convert, from a local server, in a temp dir", () => {
  it("a WAV of speech", async () => {
    server.route("/episode.wav", serveFile(wav, "audio/wav"));
    let tmp = "";
    const result = await withTempDir(
      "asr",
      async (dir, tf) => {
        tmp = dir;
        const src = await downloadAudioUrl(`${server.origin}/episode.wav`, dir, {
          outbound,
          maxBytes: 10 * 1024 * 1024,
        });
        expect(src).toMatchObject({ bytes: statSync(wav).size, contentType: "audio/wav", sniffedType: "audio/wav" });
        const probe = await probeMedia(src.path);
        assertHasAudio(probe);
        assertDuration(probe, 60);
        const progress: number[] = [];
        const asr = await convertForAsr(src.path, tf.path("asr"), {
          durationSeconds: probe.durationSeconds,
          onProgress: (f) => progress.push(f),
        });
        await tf.remove(src.path);
        expect(readdirSync(dir)).toEqual(["asr.ogg"]);
        expect(progress.at(-1)).toBe(1);
        return { probe, asr: await probeMedia(asr.path), rate: opusInputRate(asr.path) };
      },
      { root },
    );
    expect(result.probe.durationSeconds).toBeCloseTo(wavDuration, 2);
    expect(result.asr).toMatchObject({ channels: 1, codec: "opus" });
    expect(result.rate).toBe(16000);
    expect(existsSync(tmp)).toBe(false);
  });

  it("an MP4 video served chunked as application/octet-stream", async () => {
    server.route("/clip", serveFile(files.get("speech.mp4") as string, "application/octet-stream", { chunked: true }));
    await withTempDir(
      "asr",
      async (dir, tf) => {
        const src = await downloadAudioUrl(`${server.origin}/clip`, dir, { outbound, maxBytes: 10 * 1024 * 1024 });
        expect(src).toMatchObject({ contentType: "application/octet-stream", sniffedType: "video/mp4" });
        const probe = await probeMedia(src.path);
        expect(probe).toMatchObject({ hasAudio: true, hasVideo: true });
        const asr = await convertForAsr(src.path, tf.path("asr"));
        expect(await probeMedia(asr.path)).toMatchObject({ channels: 1, hasVideo: false });
        expect(opusInputRate(asr.path)).toBe(16000);
      },
      { root },
    );
  });

  it("an HTML error page served as audio/mpeg: downloaded, then refused by the probe; nothing left", async () => {
    server.route("/fake.mp3", (_req, res) =>
      res.writeHead(200, { "content-type": "audio/mpeg" }).end("<html><body>Please log in</body></html>"),
    );
    let tmp = "";
    await expect(
      withTempDir(
        "asr",
        async (dir) => {
          tmp = dir;
          const src = await downloadAudioUrl(`${server.origin}/fake.mp3`, dir, { outbound, maxBytes: 1e6 });
          expect(src.sniffedType).toBeNull();
          await probeMedia(src.path);
        },
        { root },
      ),
    ).rejects.toMatchObject({ code: "unsupported_media" });
    expect(existsSync(tmp)).toBe(false);
  });
});
