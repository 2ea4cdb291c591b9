// downloadAudioUrl against a real node:http server on 127.0.0.1 (allowed through the outbound test hook),
// with in-memory WAV bytes. The same on real speech audio, then probed and converted: media.int.test.ts.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import https from "node:https";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { createOutbound, OutboundError } from "@/lib/http/outbound";
import type { ParsedSource } from "@/lib/sources";

import { downloadAudioUrl, downloadPlatformAudio, isAcceptedContentType, platformAudioArgs } from "./download";
import { MediaError } from "./errors";
import { withTempDir } from "./temp";
import { type LocalServer, startLocalServer } from "@/test/media";
import { generate } from "selfsigned";

/** A throwaway self-signed certificate (no CA trusts it): what a TLS failure looks like. */
async function selfSigned(host: string): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: "commonName", value: host }], {
    keySize: 2048,
    extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: host }] }],
  });
  return { key: pems.private, cert: pems.cert };
}

/** A valid PCM WAV: 16 kHz mono 16-bit, `seconds` of a quiet square wave. */
function wav(seconds: number): Buffer {
  const samples = Math.round(16_000 * seconds);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(i % 40 < 20 ? 1000 : -1000, i * 2);
  const h = Buffer.alloc(44);
  h.write("RIFF", 0, "latin1");
  h.writeUInt32LE(36 + data.length, 4);
  h.write("WAVEfmt ", 8, "latin1");
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(16_000, 24);
  h.writeUInt32LE(32_000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36, "latin1");
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

const WAV = wav(2); // 64 KB
const outbound = createOutbound({
  allowPrivateFor: (h) => h === "127.0.0.1",
  defaults: { retries: 0, timeoutMs: 10_000, idleTimeoutMs: 2_000 },
});

let server: LocalServer;
let root: string;

beforeAll(async () => {
  server = await startLocalServer();
  root = mkdtempSync(path.join(tmpdir(), "media-download-test-"));
  const send = (type: string | null, body: Buffer) => (_req: unknown, res: ServerResponse) => {
    const headers: Record<string, string> = { "content-length": String(body.length) };
    if (type !== null) headers["content-type"] = type;
    res.writeHead(200, headers).end(body);
  };
  server.route("/talk.wav", send("audio/wav", WAV));
  server.route("/talk-params", send("Audio/X-WAV; charset=binary", WAV));
  server.route("/no-type", send(null, WAV));
  server.route("/octet", send("application/octet-stream", WAV));
  server.route("/page.html", send("text/html; charset=utf-8", Buffer.from("<!doctype html><title>Not audio</title>")));
  server.route("/data.json", send("application/json", Buffer.from("{}")));
  server.route("/list.m3u", send("audio/x-mpegurl", Buffer.from("#EXTM3U\nhttp://10.0.0.1/a.mp3\n")));
  server.route("/empty.mp3", send("audio/mpeg", Buffer.alloc(0)));
  server.route("/chunked.wav", (_req, res) => {
    res.writeHead(200, { "content-type": "audio/wav" });
    let sent = 0;
    const tick = () => {
      if (sent >= WAV.length) return void res.end();
      res.write(WAV.subarray(sent, sent + 8192));
      sent += 8192;
      setImmediate(tick);
    };
    tick();
  });
  server.route("/to-internal", (_req, res) => res.writeHead(302, { location: "http://10.0.0.1/talk.wav" }).end());
  server.route("/to-metadata", (_req, res) =>
    res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
  );
  server.route("/to-local", (_req, res) => res.writeHead(302, { location: "/talk.wav" }).end());
  server.route("/missing", (_req, res) => res.writeHead(404, { "content-type": "text/plain" }).end("no"));
  server.route("/busy", (_req, res) => res.writeHead(503, { "content-type": "text/plain" }).end("busy"));
  server.route("/hang.wav", (_req, res) => {
    res.writeHead(200, { "content-type": "audio/wav", "content-length": String(WAV.length) });
    res.write(WAV.subarray(0, 16_384)); // then nothing
  });
  server.route("/cut.wav", (_req, res) => {
    res.writeHead(200, { "content-type": "audio/wav", "content-length": String(WAV.length) });
    res.write(WAV.subarray(0, 16_384), () => res.socket?.destroy());
  });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

afterEach(() => {
  server.hits.length = 0;
});
function freshDir(): string {
  return mkdtempSync(path.join(root, "d-"));
}

const opts = (extra: Partial<Parameters<typeof downloadAudioUrl>[2]> = {}) => ({
  outbound,
  maxBytes: 1024 * 1024,
  ...extra,
});

describe("downloadAudioUrl", () => {
  it("streams a WAV to disk and reports its size and types", async () => {
    const d = freshDir();
    const file = await downloadAudioUrl(`${server.origin}/talk.wav`, d, opts());
    expect(file).toEqual({
      path: path.join(d, "source.wav"),
      bytes: WAV.length,
      contentType: "audio/wav",
      sniffedType: "audio/wav",
    });
    expect(readFileSync(file.path).equals(WAV)).toBe(true);
    expect(readdirSync(d)).toEqual(["source.wav"]);
  });

  it("a retry into the same directory replaces the earlier file", async () => {
    const d = freshDir();
    await downloadAudioUrl(`${server.origin}/talk.wav`, d, opts());
    const again = await downloadAudioUrl(`${server.origin}/chunked.wav`, d, opts());
    expect(again.path).toBe(path.join(d, "source.wav"));
    expect(readdirSync(d)).toEqual(["source.wav"]);
    expect(readFileSync(again.path).equals(WAV)).toBe(true);
  });

  it("accepts parameters and odd casing in the Content-Type, a missing one, and octet-stream", async () => {
    for (const [route, type, ext] of [
      ["/talk-params", "audio/x-wav", ".wav"],
      ["/no-type", "", ".bin"],
      ["/octet", "application/octet-stream", ".bin"],
    ] as const) {
      const d = freshDir();
      const file = await downloadAudioUrl(`${server.origin}${route}`, d, opts({ baseName: "in" }));
      expect(file).toMatchObject({
        path: path.join(d, `in${ext}`),
        contentType: type,
        sniffedType: "audio/wav",
        bytes: WAV.length,
      });
    }
  });

  it("follows a redirect that stays allowed", async () => {
    const file = await downloadAudioUrl(`${server.origin}/to-local`, freshDir(), opts());
    expect(file.bytes).toBe(WAV.length);
    expect(server.hits).toEqual(["/to-local", "/talk.wav"]);
  });

  it.each(["/page.html", "/data.json", "/list.m3u"])(
    "refuses %s by its Content-Type and leaves no file",
    async (route) => {
      const d = freshDir();
      const err = await downloadAudioUrl(`${server.origin}${route}`, d, opts()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MediaError);
      expect(err).toMatchObject({ code: "unsupported_media", status: 422, retryable: false });
      expect(readdirSync(d)).toEqual([]);
    },
  );

  it("refuses a file over the cap announced by Content-Length (media_too_large)", async () => {
    const d = freshDir();
    const err = await downloadAudioUrl(`${server.origin}/talk.wav`, d, opts({ maxBytes: 10_000 })).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: "MediaError", code: "media_too_large", retryable: false });
    expect((err as Error).message).toMatch(/9\.8 KiB limit/);
    expect(readdirSync(d)).toEqual([]);
  });

  it("stops a chunked body at the cap and deletes the partial file", async () => {
    const d = freshDir();
    await expect(downloadAudioUrl(`${server.origin}/chunked.wav`, d, opts({ maxBytes: 20_000 }))).rejects.toMatchObject(
      { code: "media_too_large" },
    );
    expect(readdirSync(d)).toEqual([]);
    // Under the cap the same route is fine.
    expect((await downloadAudioUrl(`${server.origin}/chunked.wav`, freshDir(), opts())).bytes).toBe(WAV.length);
  });

  it("refuses a redirect to an internal address before connecting (the guard's OutboundError)", async () => {
    const d = freshDir();
    for (const route of ["/to-internal", "/to-metadata"]) {
      const err = await downloadAudioUrl(`${server.origin}${route}`, d, opts()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutboundError);
      expect(err).toMatchObject({ code: expect.stringMatching(/^(address|url)_not_allowed$/), status: 422 });
    }
    expect(readdirSync(d)).toEqual([]);
  });

  it("refuses an internal URL outright", async () => {
    const strict = createOutbound({ defaults: { retries: 0 } });
    await expect(
      downloadAudioUrl(`${server.origin}/talk.wav`, freshDir(), { outbound: strict, maxBytes: 1e6 }),
    ).rejects.toBeInstanceOf(OutboundError);
    expect(server.hits).toEqual([]);
  });

  it("maps HTTP errors to download_failed, retryable only for server trouble", async () => {
    await expect(downloadAudioUrl(`${server.origin}/missing`, freshDir(), opts())).rejects.toMatchObject({
      code: "download_failed",
      retryable: false,
      status: 502,
    });
    await expect(downloadAudioUrl(`${server.origin}/busy`, freshDir(), opts())).rejects.toMatchObject({
      code: "download_failed",
      retryable: true,
    });
  });

  it("DNS, refused and TLS failures keep their own codes, name the link's host and are not retryable", async () => {
    const noName = createOutbound({
      defaults: { retries: 0 },
      resolver: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND feeds.example.invalid"), { code: "ENOTFOUND" });
      },
    });
    const dns = await downloadAudioUrl("https://feeds.example.invalid/ep1.mp3", freshDir(), {
      outbound: noName,
      maxBytes: 1e6,
    }).catch((e: unknown) => e);
    expect(dns).toBeInstanceOf(OutboundError);
    expect(dns).toMatchObject({ code: "upstream_dns_failed", status: 502 });
    expect((dns as Error).message).toMatch(/^The name feeds\.example\.invalid could not be found \(DNS failed\)/);
    expect((dns as Error).message).not.toMatch(/YOUTUBE_PROXIES|try again/i);

    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve)); // nothing listens there now
    const refused = await downloadAudioUrl(`http://127.0.0.1:${port}/ep1.mp3`, freshDir(), opts()).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: "upstream_refused", status: 502 });
    expect((refused as Error).message).toMatch(/^127\.0\.0\.1 refused the connection: .*check the link/);
    expect((refused as Error).message).toContain("OUTBOUND_PROXY");

    const tlsServer = https.createServer(await selfSigned("media.test"), (_req, res) => res.end("x"));
    await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
    const tlsPort = (tlsServer.address() as net.AddressInfo).port;
    const toLocal = createOutbound({
      resolver: async () => ["127.0.0.1"],
      allowPrivateFor: (h) => h === "media.test",
      defaults: { retries: 0 },
    });
    const tlsError = await downloadAudioUrl(`https://media.test:${tlsPort}/ep1.mp3`, freshDir(), {
      outbound: toLocal,
      maxBytes: 1e6,
    }).catch((e: unknown) => e);
    await new Promise((resolve) => tlsServer.close(resolve));
    expect(tlsError).toMatchObject({ code: "upstream_tls_failed", status: 502 });
    expect((tlsError as Error).message).toMatch(/^No secure connection to media\.test: .*NODE_EXTRA_CA_CERTS/);
  });

  it("refuses an empty body", async () => {
    const d = freshDir();
    await expect(downloadAudioUrl(`${server.origin}/empty.mp3`, d, opts())).rejects.toMatchObject({
      code: "unsupported_media",
    });
    expect(readdirSync(d)).toEqual([]);
  });

  it("reports a connection cut mid-body as a retryable download_failed and deletes the partial file", async () => {
    const d = freshDir();
    await expect(downloadAudioUrl(`${server.origin}/cut.wav`, d, opts())).rejects.toMatchObject({
      code: "download_failed",
      retryable: true,
    });
    expect(readdirSync(d)).toEqual([]);
  });

  it("stops on abort with the caller's reason and deletes the partial file", async () => {
    const d = freshDir();
    const ac = new AbortController();
    const job = downloadAudioUrl(`${server.origin}/hang.wav`, d, opts({ signal: ac.signal }));
    // Held so a failed expectation below leaves no unhandled rejection behind.
    const outcome = job.then(
      () => "resolved",
      (error: unknown) => error,
    );
    // Bytes go to a hidden partial file; the final name appears only once the file is complete.
    await vi.waitFor(
      () => expect(readdirSync(d)).toEqual([expect.stringMatching(/^\.source\.wav\.[0-9a-f]{12}\.part$/)]),
      { timeout: 20_000, interval: 50 },
    );
    const reason = new Error("job cancelled");
    ac.abort(reason);
    expect(await outcome).toBe(reason);
    expect(readdirSync(d)).toEqual([]);
  });

  it("inside withTempDir: the directory is gone after a success and after a failure", async () => {
    let okDir = "";
    const bytes = await withTempDir(
      "dl",
      async (tmp) => {
        okDir = tmp;
        return (await downloadAudioUrl(`${server.origin}/talk.wav`, tmp, opts())).bytes;
      },
      { root },
    );
    expect(bytes).toBe(WAV.length);
    expect(existsSync(okDir)).toBe(false);

    let failedDir = "";
    await expect(
      withTempDir(
        "dl",
        async (tmp) => {
          failedDir = tmp;
          await downloadAudioUrl(`${server.origin}/chunked.wav`, tmp, opts({ maxBytes: 20_000 }));
        },
        { root },
      ),
    ).rejects.toMatchObject({ code: "media_too_large" });
    expect(existsSync(failedDir)).toBe(false);
  });
});

describe("isAcceptedContentType", () => {
  it.each([
    ["audio/mpeg", true],
    ["audio/mp4; codecs=mp4a.40.2", true],
    ["video/mp4", true],
    ["application/ogg", true],
    ["application/octet-stream", true],
    ["binary/octet-stream", true],
    ["", true],
    [null, true],
    ["text/html", false],
    ["text/plain", false],
    ["application/json", false],
    ["image/jpeg", false],
    ["audio/x-mpegurl", false],
    ["application/vnd.apple.mpegurl", false],
    ["audio/x-scpls", false],
  ])("%s → %s", (type, ok) => {
    expect(isAcceptedContentType(type)).toBe(ok);
  });
});

describe("downloadPlatformAudio (no binary needed)", () => {
  it("builds yt-dlp arguments: best audio, size cap, duration/live filter, output in the directory", () => {
    const args = platformAudioArgs("/tmp/job 100%", 50_000_000, 10_800);
    const at = (flag: string) => args[args.indexOf(flag) + 1];
    expect(at("-f")).toBe(
      "bestaudio[protocol~='^(https?|m3u8(_native)?|http_dash_segments)$']/best[protocol~='^(https?|m3u8(_native)?|http_dash_segments)$']",
    );
    expect(at("--max-filesize")).toBe("50000000");
    expect(at("--match-filter")).toBe("!is_live & duration <=? 10800");
    expect(at("-o")).toBe("/tmp/job 100%%/audio.%(ext)s");
    expect(args).toContain("--no-part");
    expect(args).not.toContain("--"); // runYtDlp adds `-- <url>` itself
  });

  it("refuses sources that are files, and short links not yet resolved", async () => {
    const d = freshDir();
    const base = { maxBytes: 1e6, maxDurationSeconds: 60, binary: "/nonexistent/yt-dlp" };
    const upload: ParsedSource = { platform: "upload", videoId: "x", canonicalUrl: "https://example.com/a.mp3" };
    await expect(downloadPlatformAudio(upload, d, base)).rejects.toMatchObject({ code: "unsupported_media" });
    const short: ParsedSource = {
      platform: "tiktok",
      videoId: "ZMabc",
      canonicalUrl: "https://vm.tiktok.com/ZMabc/",
      needsResolve: true,
    };
    await expect(downloadPlatformAudio(short, d, base)).rejects.toMatchObject({ code: "unsupported_media" });
  });

  it("turns a yt-dlp that cannot start into download_failed", async () => {
    const source: ParsedSource = {
      platform: "vimeo",
      videoId: "987654321",
      canonicalUrl: "https://vimeo.com/987654321",
    };
    const d = freshDir();
    await expect(
      downloadPlatformAudio(source, d, { maxBytes: 1e6, maxDurationSeconds: 60, binary: "/nonexistent/yt-dlp" }),
    ).rejects.toMatchObject({
      name: "MediaError",
      code: "download_failed",
    });
    expect(readdirSync(d)).toEqual([]);
  });
});
