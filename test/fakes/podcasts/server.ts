/**
 * Fake podcast hosting for the podcast tests: node:http on 127.0.0.1, port 0.
 *
 * - /feeds/<file>          a feed from test/fixtures/feeds, byte for byte except `https://example.com/` rewritten to
 *                          /ex/ here; its Content-Type says charset=utf-8 unless ?charset=<label> (`none`: no charset)
 * - /ex/**                 what those feeds link to: audio files (audio/mpeg) and Podcasting 2.0 transcripts
 *                          (the namespace's real example files, by extension)
 * - /lookup                the iTunes lookup API (https://itunes.apple.com/lookup?id=…&entity=podcast|podcastEpisode):
 *                          show ids in `shows` answer {resultCount, results: [{wrapperType: "track", kind: "podcast",
 *                          collectionId, feedUrl}, …episodes]}, unknown ids answer {resultCount: 0, results: []}
 * - /hostile/<name>        hand-made hostile feeds: billion-laughs.xml, xxe.xml, malformed.xml, page.html, and
 *                          huge.xml (50 MB of items, streamed without Content-Length; `hugeBytesSent` counts what left)
 * - `live` paths            a feed a test changes (follows): served with an ETag (If-None-Match → 304), example.com
 *                          rewritten as for /feeds/; `redirects` paths answer their status and Location
 * - /generated/<n>.xml     a generated feed of n episodes (imports), audio at /ex/<prefix>-<i>.mp3
 *                          (?prefix=…, default gen; ?durations=0 leaves itunes:duration out; ?transcripts=1 gives
 *                          each episode a Podcasting 2.0 JSON transcript)
 *
 *   const server = await startFakePodcastServer();   // server.origin = "http://127.0.0.1:<port>"
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const FEEDS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/feeds");

export interface FakeShow {
  feed: string;
  episodes?: { trackId: number; guid: string; title: string; audioPath: string }[];
}

export interface FakePodcastServer {
  origin: string;
  /** Apple show id → its feed (a path under this server) and the episodes the lookup lists. */
  shows: Map<string, FakeShow>;
  hugeBytesSent: () => number;
  /** Requests by path, for assertions (e.g. the XXE target is never fetched). */
  requests: string[];
  /** Path → a feed's text, changed by the test between checks (served with an ETag). */
  live: Map<string, string>;
  /** Path → [status, location]: a feed that moved. */
  redirects: Map<string, [number, string]>;
  /** A short WAV for audio paths; tests may replace it. */
  audio: Buffer;
  close(): Promise<void>;
}

/** What /hostile/huge.xml would send in all, were it read to the end. */
export const HUGE_FEED_BYTES = 50 * 1024 * 1024;

export const HOSTILE: Record<string, string> = {
  "billion-laughs.xml": `<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title>
<item><title>&lol9;</title><guid>laugh-1</guid><enclosure url="https://example.com/laugh.mp3" type="audio/mpeg" length="1"/></item>
</channel></rss>`,
  "xxe.xml": `<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
  <!ENTITY remote SYSTEM "__ORIGIN__/secret.txt">
]>
<rss version="2.0"><channel><title>Show &xxe;&remote;</title>
<item><title>Episode &xxe;</title><guid>xxe-1</guid><enclosure url="https://example.com/xxe.mp3" type="audio/mpeg" length="1"/></item>
</channel></rss>`,
  "malformed.xml": `<?xml version="1.0"?>
<rss version="2.0"><channel><title>Broken</title>
<item><title>Unclosed<guid>x</guid></item>
</channel></rss>`,
  "page.html": `<!doctype html><html><head><title>A podcast's web page</title></head><body><p>Listen!</p></body></html>`,
};

/**
 * A feed of `n` episodes (newest first), HH:MM:SS and seconds durations alternating (or none), audio at
 * /ex/<prefix>-<i>.mp3 (the prefix keeps feeds of different tests apart), its enclosure length 1,048,576 + i.
 */
export function generatedFeed(
  origin: string,
  n: number,
  options: { title?: string; durations?: boolean; prefix?: string; transcripts?: boolean } = {},
): string {
  const title = options.title ?? `Generated show (${n})`;
  const prefix = options.prefix ?? "gen";
  const items = Array.from({ length: n }, (_, k) => {
    const i = n - k;
    const duration =
      options.durations === false
        ? ""
        : `<itunes:duration>${i % 2 === 0 ? String(60 + i) : `00:01:${String(i % 60).padStart(2, "0")}`}</itunes:duration>`;
    const transcript = options.transcripts
      ? `<podcast:transcript url="${origin}/ex/${prefix}-${i}/transcript.json" type="application/json"/>`
      : "";
    return `<item><title>Episode ${i}</title><guid isPermaLink="false">${prefix}-${i}</guid><pubDate>${new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toUTCString()}</pubDate>${duration}${transcript}<enclosure url="${origin}/ex/${prefix}-${i}.mp3" type="audio/mpeg" length="${1_048_576 + i}"/></item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>${title}</title>
${items.join("\n")}
</channel></rss>`;
}

/** A tiny valid WAV: `seconds` of a 440 Hz tone, 8 kHz mono 16-bit. */
export function toneWav(seconds = 1): Buffer {
  const rate = 8000;
  const samples = rate * seconds;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const TRANSCRIPTS: Record<string, [string, string]> = {
  ".vtt": ["transcript-example.vtt", "text/vtt"],
  ".srt": ["transcript-example.srt", "application/x-subrip"],
  ".json": ["transcript-example.json", "application/json"],
  ".html": ["transcript-example.html", "text/html"],
  ".txt": ["transcript-example.txt", "text/plain"],
};
/** Real transcripts served as text/plain by their file name under /ex/ (test/fixtures/feeds/README.md). */
const PLAIN_TEXT_FILES = new Set(["devinterrupted-labs.txt"]);

export async function startFakePodcastServer(): Promise<FakePodcastServer> {
  let hugeSent = 0;
  const requests: string[] = [];
  const state = { origin: "" };
  const shows = new Map<string, FakeShow>();
  const fake: FakePodcastServer = {
    origin: "",
    shows,
    hugeBytesSent: () => hugeSent,
    requests,
    live: new Map(),
    redirects: new Map(),
    audio: toneWav(1),
    close: async () => undefined,
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", state.origin);
    requests.push(url.pathname);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(body)) });
      res.end(body);
    };
    const moved = fake.redirects.get(url.pathname);
    if (moved) {
      res.writeHead(moved[0], { location: moved[1], "content-length": "0" });
      return res.end();
    }
    const live = fake.live.get(url.pathname);
    if (live !== undefined) {
      const body = Buffer.from(live.replaceAll("https://example.com/", `${state.origin}/ex/`));
      const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, { etag });
        return res.end();
      }
      res.writeHead(200, {
        "content-type": "application/rss+xml; charset=utf-8",
        etag,
        "content-length": String(body.length),
      });
      return res.end(body);
    }
    if (url.pathname.startsWith("/feeds/")) {
      const name = path.basename(url.pathname);
      let bytes: Buffer;
      try {
        bytes = readFileSync(path.join(FEEDS_DIR, name));
      } catch {
        return send(404, "text/plain", "no such feed");
      }
      const charset = url.searchParams.get("charset") ?? "utf-8";
      const type = `${name.endsWith(".atom") ? "application/atom+xml" : "application/rss+xml"}${charset === "none" ? "" : `; charset=${charset}`}`;
      // Through latin1 and back: every byte stays as it is (whatever the feed's encoding), the ASCII URL is replaced.
      return send(
        200,
        type,
        Buffer.from(bytes.toString("latin1").replaceAll("https://example.com/", `${state.origin}/ex/`), "latin1"),
      );
    }
    if (url.pathname.startsWith("/generated/")) {
      const n = Number(path.basename(url.pathname, ".xml"));
      const options = {
        durations: url.searchParams.get("durations") !== "0",
        prefix: url.searchParams.get("prefix") ?? "gen",
        transcripts: url.searchParams.get("transcripts") === "1",
      };
      return send(
        200,
        "application/rss+xml",
        generatedFeed(state.origin, Number.isFinite(n) ? Math.min(n, 10_000) : 1, options),
      );
    }
    if (url.pathname.startsWith("/ex/")) {
      const ext = path.extname(url.pathname);
      const name = path.basename(url.pathname);
      if (PLAIN_TEXT_FILES.has(name)) return send(200, "text/plain", readFileSync(path.join(FEEDS_DIR, name)));
      const transcript = TRANSCRIPTS[ext];
      if (transcript) return send(200, transcript[1], readFileSync(path.join(FEEDS_DIR, transcript[0])));
      if (ext === ".mp3" || ext === ".wav") return send(200, "audio/wav", fake.audio);
      return send(404, "text/plain", "not found");
    }
    if (url.pathname === "/lookup") {
      const id = url.searchParams.get("id") ?? "";
      const show = shows.get(id);
      if (!show) return send(200, "text/javascript; charset=utf-8", JSON.stringify({ resultCount: 0, results: [] }));
      const results: object[] = [
        {
          wrapperType: "track",
          kind: "podcast",
          collectionId: Number(id),
          trackId: Number(id),
          collectionName: "Show",
          feedUrl: `${state.origin}${show.feed}`,
        },
      ];
      if (url.searchParams.get("entity") === "podcastEpisode") {
        for (const e of show.episodes ?? []) {
          results.push({
            wrapperType: "podcastEpisode",
            kind: "podcast-episode",
            trackId: e.trackId,
            collectionId: Number(id),
            trackName: e.title,
            episodeGuid: e.guid.replace("https://example.com/", `${state.origin}/ex/`),
            episodeUrl: `${state.origin}${e.audioPath}`,
            releaseDate: "2020-10-09T04:30:38Z",
            trackTimeMillis: 1_234_000,
          });
        }
      }
      return send(200, "text/javascript; charset=utf-8", JSON.stringify({ resultCount: results.length, results }));
    }
    if (url.pathname === "/hostile/huge.xml") {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      const chunk = Buffer.from(`<item><title>${"x".repeat(1000)}</title></item>\n`.repeat(64));
      res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>\n');
      const pump = () => {
        while (hugeSent < HUGE_FEED_BYTES) {
          hugeSent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end("</channel></rss>");
      };
      res.on("error", () => undefined);
      pump();
      return;
    }
    if (url.pathname.startsWith("/hostile/")) {
      const name = path.basename(url.pathname);
      const body = HOSTILE[name];
      if (!body) return send(404, "text/plain", "not found");
      return send(
        200,
        name.endsWith(".html") ? "text/html; charset=utf-8" : "application/rss+xml",
        body.replaceAll("__ORIGIN__", state.origin),
      );
    }
    send(404, "text/plain", "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.origin = state.origin;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
