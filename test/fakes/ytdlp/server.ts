/**
 * Fake subtitle CDN for the yt-dlp provider tests: node:http on 127.0.0.1, port 0, serving the files in
 * ./subs at the paths the fixtures (./fixtures/*.info.json) use under the placeholder origin
 * https://ytdlp-fixtures.invalid. `fixture(name, origin)` gives a fixture with that origin rewritten.
 *
 *   const server = await startFakeSubtitleServer();
 *   const info = loadFixture("tiktok", server.origin);
 *   ...
 *   await server.close();
 */
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const FAKES_DIR = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = path.join(FAKES_DIR, "fixtures");
export const SUBS_DIR = path.join(FAKES_DIR, "subs");

/** The origin the fixtures' subtitle URLs use; tests replace it with the fake server's. */
export const PLACEHOLDER_ORIGIN = "https://ytdlp-fixtures.invalid";

export const FIXTURE_NAMES = ["x", "tiktok", "facebook", "instagram", "rednote", "vimeo"] as const;
export type FixtureName = (typeof FIXTURE_NAMES)[number];

const X_SUBS = "/x/ext_tw_video/1790000000000000002/pu/pl/subs/en";
const TIKTOK = "/tiktok/video/tos/useast2a/tos-useast2a-v-0068";

/** URL path (no query) → file in ./subs. */
export const ROUTES: Readonly<Record<string, string>> = {
  [`${X_SUBS}/Zb3kXQ1aPq0rT9mA.m3u8`]: "x-en.m3u8",
  [`${X_SUBS}/seg-0.vtt`]: "x-en-seg-0.vtt",
  [`${X_SUBS}/seg-1.vtt`]: "x-en-seg-1.vtt",
  [`${X_SUBS}/seg-2.vtt`]: "x-en-seg-2.vtt",
  [`${TIKTOK}/o1AbCdEfGhIjKlMnOp/`]: "tiktok-eng-US.vtt",
  [`${TIKTOK}/o2AbCdEfGhIjKlMnOp/`]: "tiktok-eng-US-creator.json",
  [`${TIKTOK}/o3AbCdEfGhIjKlMnOp/`]: "tiktok-cmn-Hans-CN.vtt",
  [`${TIKTOK}/o4AbCdEfGhIjKlMnOp/`]: "tiktok-spa-ES.vtt",
  "/facebook/v/t39.8562-6/441000000_1000000000000001_2000000000000000001_n.srt": "facebook-en_US.srt",
  "/facebook/v/t39.8562-6/441000001_1000000000000002_2000000000000000002_n.srt": "facebook-es_LA.srt",
  "/vimeo/captions/171000001.vtt": "vimeo-en.vtt",
  "/vimeo/captions/171000002.vtt": "vimeo-en-x-autogen.vtt",
  "/vimeo/captions/171000003.vtt": "vimeo-fr.vtt",
  // Not in a fixture (no platform here serves these formats): for the json3 / rolling-VTT paths.
  "/youtube/timedtext/auto.json3": "youtube-auto.json3",
  "/youtube/timedtext/auto.vtt": "youtube-auto.vtt",
};

const CONTENT_TYPES: Record<string, string> = {
  ".vtt": "text/vtt; charset=utf-8",
  ".srt": "application/x-subrip",
  ".json3": "application/json",
  ".json": "application/json",
  ".m3u8": "application/vnd.apple.mpegurl",
};

export interface FakeResponse {
  status?: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface FakeSubtitleServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Paths (with query) requested so far, in order. */
  hits: string[];
  /** Serve `path` (no query) with this response instead of (or in addition to) the routes. */
  override(pathname: string, response: FakeResponse): void;
  close(): Promise<void>;
}

export function subtitleFile(name: string): string {
  return readFileSync(path.join(SUBS_DIR, name), "utf8");
}

export async function startFakeSubtitleServer(): Promise<FakeSubtitleServer> {
  const hits: string[] = [];
  const overrides = new Map<string, FakeResponse>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    hits.push(url.pathname + url.search);
    const override = overrides.get(url.pathname);
    if (override) {
      res.writeHead(override.status ?? 200, override.headers ?? { "content-type": "text/plain" });
      res.end(override.body ?? "");
      return;
    }
    const file = ROUTES[url.pathname];
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    const body = readFileSync(path.join(SUBS_DIR, file));
    res.writeHead(200, {
      "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
      "content-length": String(body.length),
    });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    override: (pathname, response) => overrides.set(pathname, response),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A fixture's raw text, with the placeholder origin replaced by `origin` when given. */
export function fixtureText(name: FixtureName, origin?: string): string {
  const text = readFileSync(path.join(FIXTURES_DIR, `${name}.info.json`), "utf8");
  return origin ? text.split(PLACEHOLDER_ORIGIN).join(origin) : text;
}

/** A fixture, parsed, with the placeholder origin replaced by `origin` when given. */
export function loadFixture(name: FixtureName, origin?: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name, origin)) as Record<string, unknown>;
}

/** Writes the rewritten fixture to `dir` (for `yt-dlp --load-info-json`) and returns its path. */
export function writeFixture(name: FixtureName, origin: string, dir: string): string {
  const file = path.join(dir, `${name}.info.json`);
  writeFileSync(file, fixtureText(name, origin));
  return file;
}

// ---------------------------------------------------------------------------------------------------
// A plain-HTTP forward proxy that answers every request itself, for running real extractors offline:
// yt-dlp sends `GET http://www.xiaohongshu.com/explore/<id>` (absolute form) to it and gets our page.
// ---------------------------------------------------------------------------------------------------

export interface FakeProxy {
  /** http://127.0.0.1:<port>, for `--proxy`. */
  origin: string;
  /** Absolute URLs requested through the proxy, in order. */
  requests: string[];
  close(): Promise<void>;
}

export type ProxyHandler = (url: URL, req: http.IncomingMessage, res: http.ServerResponse) => void;

export async function startFakeProxy(handler: ProxyHandler): Promise<FakeProxy> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const target = req.url ?? "/";
    requests.push(target);
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      res.writeHead(400).end("absolute-form requests only");
      return;
    }
    // A request-target naming an address (what the app's guard sends: the IP it checked) is served as
    // the site in the Host header, as the real site behind that address would.
    if (req.headers.host) url = new URL(`${url.pathname}${url.search}`, `${url.protocol}//${req.headers.host}`);
    handler(url, req, res);
  });
  // HTTPS through this proxy (CONNECT) is refused: the tests only use plain-HTTP targets.
  server.on("connect", (_req, socket) => socket.end("HTTP/1.1 405 Method Not Allowed\r\n\r\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A RedNote note page as www.xiaohongshu.com serves it: the note in window.__INITIAL_STATE__. */
export function rednoteNotePage(
  noteId: string,
  note: { title: string; desc: string; durationMs: number; videoUrl: string },
): string {
  const state = {
    note: {
      noteDetailMap: {
        [noteId]: {
          note: {
            noteId,
            type: "video",
            title: note.title,
            desc: note.desc,
            tagList: [],
            user: { userId: "5c31698d0000000007018a31", nickname: "Verbatim" },
            imageList: [],
            video: {
              media: {
                stream: {
                  h264: [
                    {
                      masterUrl: note.videoUrl,
                      backupUrls: [],
                      width: 1080,
                      height: 1920,
                      videoCodec: "h264",
                      audioCodec: "aac",
                      duration: note.durationMs,
                    },
                  ],
                  h265: [],
                },
              },
            },
          },
        },
      },
    },
  };
  // undefined values in the real page are why yt-dlp runs js_to_json on it.
  const json = JSON.stringify(state).replace('"tagList":[]', '"tagList":[],"extra":undefined');
  return `<!doctype html><html><head><meta name="og:title" content="${note.title} - 小红书"></head><body><script>window.__INITIAL_STATE__=${json}</script></body></html>`;
}
