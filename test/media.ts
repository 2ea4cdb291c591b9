/**
 * Test helpers for lib/media: real speech audio (espeak-ng, test/speech.ts) turned into every container with
 * the real ffmpeg, a talk with a long pause, and a tiny local HTTP server. Used by the tests in lib/media and
 * lib/transcripts and by scripts/bench/media.ts; not imported by application code.
 */
import { execFile } from "node:child_process";
import { createReadStream, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";

import { findExecutable } from "@/lib/process/media-tools";
import { speechWav } from "./speech";

const run = promisify(execFile);

/** Runs `ffmpeg -v error -y <args>` (the one the app would run: lib/process/media-tools.ts); rejects with its stderr. */
export async function ffmpeg(args: readonly string[]): Promise<void> {
  try {
    await run(findExecutable("ffmpeg") ?? "ffmpeg", ["-nostdin", "-hide_banner", "-v", "error", "-y", ...args], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? "";
    throw new Error(`ffmpeg ${args.join(" ")} failed: ${stderr || String(err)}`);
  }
}

/** Speech synthesised by espeak-ng into a WAV file (22.05 kHz mono). */
export const makeSpeechWav = (file: string, text: string): Promise<string> => speechWav(file, text);

/**
 * A talk with a long pause: two spoken sentences with 30 s of silence between them, as the bytes of a WAV file
 * (22.05 kHz mono); it and its parts are written to `dir`.
 */
export async function pausedTalk(dir: string): Promise<Buffer> {
  const first = await speechWav(path.join(dir, "first.wav"), "The first part of the talk is here.");
  const second = await speechWav(path.join(dir, "second.wav"), "And the second part follows the pause.");
  const paused = path.join(dir, "paused.wav");
  await ffmpeg([
    "-i",
    first,
    "-f",
    "lavfi",
    "-t",
    "30",
    "-i",
    "anullsrc=r=22050:cl=mono",
    "-i",
    second,
    "-filter_complex",
    "[0:a][1:a][2:a]concat=n=3:v=0:a=1",
    "-ac",
    "1",
    "-ar",
    "22050",
    paused,
  ]);
  return readFile(paused);
}

export const SPEECH_TEXT =
  "Welcome to the Verbatim test recording. Today we talk about streaming audio, speech recognition, and careful engineering. One, two, three, four, five.";

export interface Sample {
  /** File name in the samples directory. */
  name: string;
  /** What sniffMediaType should say. */
  mime: string;
  /** A word of ffprobe's format_name. */
  format: string;
  /** ffmpeg output options (after `-i speech.wav`). */
  args: readonly string[];
  /** Has a video stream (made from a lavfi colour source). */
  video?: boolean;
}

/** Every container/codec the magic-byte and probe tests cover, made from the speech WAV. */
export const SAMPLES: readonly Sample[] = [
  { name: "speech.mp3", mime: "audio/mpeg", format: "mp3", args: ["-c:a", "libmp3lame", "-b:a", "64k"] },
  {
    name: "speech-noid3.mp3",
    mime: "audio/mpeg",
    format: "mp3",
    args: ["-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "0", "-write_xing", "0"],
  },
  { name: "speech.ogg", mime: "audio/ogg", format: "ogg", args: ["-c:a", "libvorbis", "-q:a", "2"] },
  { name: "speech.opus", mime: "audio/ogg", format: "ogg", args: ["-c:a", "libopus", "-b:a", "32k"] },
  { name: "speech.flac", mime: "audio/flac", format: "flac", args: ["-c:a", "flac"] },
  { name: "speech.m4a", mime: "audio/mp4", format: "mp4", args: ["-c:a", "aac", "-b:a", "64k", "-f", "ipod"] },
  { name: "speech.aac", mime: "audio/aac", format: "aac", args: ["-c:a", "aac", "-b:a", "64k", "-f", "adts"] },
  { name: "speech.webm", mime: "video/webm", format: "webm", args: ["-c:a", "libopus", "-b:a", "32k"] },
  { name: "speech.mka", mime: "video/x-matroska", format: "matroska", args: ["-c:a", "flac"] },
  { name: "speech.aiff", mime: "audio/aiff", format: "aiff", args: ["-c:a", "pcm_s16be"] },
  { name: "speech.caf", mime: "audio/x-caf", format: "caf", args: ["-c:a", "pcm_s16le"] },
  { name: "speech.wma", mime: "video/x-ms-asf", format: "asf", args: ["-c:a", "wmav2", "-b:a", "64k"] },
  {
    name: "speech.mp4",
    mime: "video/mp4",
    format: "mp4",
    video: true,
    args: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest"],
  },
  {
    name: "speech.mov",
    mime: "video/quicktime",
    format: "mov",
    video: true,
    args: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest"],
  },
  {
    name: "speech.3gp",
    mime: "video/3gpp",
    format: "3gp",
    video: true,
    args: ["-c:v", "mpeg4", "-s", "176x144", "-c:a", "aac", "-ar", "16000", "-ac", "1", "-shortest"],
  },
  {
    name: "speech.avi",
    mime: "video/x-msvideo",
    format: "avi",
    video: true,
    args: ["-c:v", "mpeg4", "-c:a", "libmp3lame", "-shortest"],
  },
  {
    name: "speech.mkv",
    mime: "video/x-matroska",
    format: "matroska",
    video: true,
    args: ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "libvorbis", "-shortest"],
  },
  {
    name: "speech.ogv",
    mime: "video/ogg",
    format: "ogg",
    video: true,
    args: ["-c:v", "libtheora", "-c:a", "libvorbis", "-shortest"],
  },
];

/** A PCM WAV's duration from its header: the data chunk's size over the byte rate. */
function wavSeconds(wav: Buffer): number {
  const byteRate = wav.readUInt32LE(28);
  for (let at = 12; at + 8 <= wav.length; at += 8 + wav.readUInt32LE(at + 4)) {
    if (wav.toString("ascii", at, at + 4) === "data") return wav.readUInt32LE(at + 4) / byteRate;
  }
  throw new Error("no data chunk in the WAV");
}

/** Makes one sample from the speech WAV into `dir`. */
export async function makeSample(wav: string, dir: string, sample: Sample): Promise<string> {
  const out = path.join(dir, sample.name);
  // The colour source as long as the speech: with -shortest alone, an older ffmpeg (the npm static build a machine
  // without one of its own uses) ends the video half a second past the audio.
  const input = sample.video
    ? [
        ...["-f", "lavfi", "-i", `color=c=blue:s=320x240:r=10:d=${wavSeconds(await readFile(wav)).toFixed(3)}`],
        ...["-i", wav, "-map", "0:v", "-map", "1:a"],
      ]
    : ["-i", wav];
  await ffmpeg([...input, ...sample.args, out]);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Local HTTP server
// ---------------------------------------------------------------------------------------------------

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface LocalServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Paths requested so far. */
  hits: string[];
  route(pathname: string, handler: Route): void;
  close(): Promise<void>;
}

/** node:http on 127.0.0.1, port 0; unknown paths are 404. */
export async function startLocalServer(): Promise<LocalServer> {
  const routes = new Map<string, Route>();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    hits.push(req.url ?? "/");
    const handler = routes.get(pathname);
    if (!handler) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    route: (pathname, handler) => routes.set(pathname, handler),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Serves a file from disk, streaming, with a Content-Length (or chunked when `chunked`). */
export function serveFile(file: string, contentType: string, opts: { chunked?: boolean } = {}): Route {
  return (_req, res) => {
    const headers: Record<string, string> = { "content-type": contentType };
    if (!opts.chunked) headers["content-length"] = String(statSync(file).size);
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  };
}
