/**
 * A fake youtube.com for tests: a real node:http server on 127.0.0.1 (port 0) answering what
 * youtubei.js asks for with `Innertube.create({ retrieve_player: false, generate_session_locally: true })`
 * and `getBasicInfo`, and what the caption provider fetches:
 *
 *   POST /youtubei/v1/config   session config (Innertube.create, unless retrieve_innertube_config is false)
 *   POST /youtubei/v1/player   player response for body.videoId: fixtures/player/<id>.json, else the
 *                              "unavailable" response (status ERROR), as YouTube answers unknown ids
 *   POST /youtubei/v1/next     404: getBasicInfo does not call it (getInfo would)
 *   GET  /api/timedtext        ?v=&lang=[&kind=asr][&fmt=json3|srv3|vtt] → fixtures/timedtext/<v>.<lang>[.asr].<fmt>,
 *                              no fmt → the classic <transcript> XML
 *   GET  /playlist             ?list= → the page yt-dlp's youtube:tab extractor reads, for the playlists
 *                              in `fake.playlists` (made by ../podcasts/youtube-playlist.ts), else 404
 *   GET  /channel/<id>/videos, /@<handle>/videos → a channel's Videos tab, for the channels in
 *                              `fake.channels` (keyed by id), else 404
 *
 * InnerTube requests are checked the way YouTube rejects bad ones (400 INVALID_ARGUMENT without a
 * JSON body carrying context.client.clientName/clientVersion). Every request is recorded.
 * The fixtures are hand-made to YouTube's real response shapes: see README.md.
 */
import { sendMedia, silenceWav, WATCH_MEDIA_PATH, watchPage, type Owner } from "./watch-page";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  youtubeChannelPage,
  youtubePlaylistPage,
  type FakeChannel,
  type FakePlaylistVideo,
} from "../podcasts/youtube-playlist";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** For InnerTube calls: context.client.clientName (WEB, VISIONOS, ANDROID_VR...). */
  client?: string;
  /** For InnerTube calls: serviceIntegrityDimensions.poToken, when sent. */
  poToken?: string;
}

/**
 * What `/player` answers for one video, per InnerTube client name (context.client.clientName, e.g.
 * "VISIONOS", "ANDROID_VR", "WEB"; "*" for any other): a fixture path under fixtures/ without ".json"
 * ("recorded/request_blocked", "player/Hq7sWc2dT4E"), or "429" for YouTube's recorded
 * Too-Many-Requests page with status 429, or "hang" for no answer at all.
 */
export type Scenario = Record<string, string>;

export interface FakeYoutube {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  /**
   * "normal"; "empty": /api/timedtext answers 200 with an empty body (what YouTube does when a
   * track needs a PO token it did not get); "throttled": /api/timedtext answers 429.
   */
  timedtext: "normal" | "empty" | "throttled";
  /** Per video id, what each client gets from /player (see Scenario). Unset ids use fixtures/player/<id>.json. */
  scenarios: Map<string, Scenario>;
  /** Playlist id → its videos, served as the playlist's page at /playlist?list=<id>. */
  playlists: Map<string, FakePlaylistVideo[]>;
  /** Channel id (UC…) → the channel, served as its Videos tab at /channel/<id>/videos and /@<handle>/videos. */
  channels: Map<string, FakeChannel>;
  /** Milliseconds every /player answer waits (keeps concurrent lookups overlapping). Default 0. */
  playerDelayMs: number;
  /**
   * Ids answered as the captioned video (FAKE_IDS.captioned) is, under their own id (its player answer's
   * `videoId`; its caption tracks are the captioned video's): many distinct captioned videos at once.
   */
  lookalikes: Set<string>;
  close(): Promise<void>;
}

function googleError(res: http.ServerResponse, code: number, status: string, message: string): void {
  send(
    res,
    code,
    "application/json; charset=UTF-8",
    JSON.stringify({ error: { code, message, errors: [{ message, domain: "global", reason: "badRequest" }], status } }),
  );
}

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "private",
    "x-content-type-options": "nosniff",
    server: "ESF",
  });
  res.end(body);
}

function fixture(rel: string): string | null {
  const path = join(FIXTURES, rel);
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** The channel a video's player fixture names (its microformat's ownerProfileUrl), for its watch page. */
function ownerOf(videoId: string): Owner | null {
  const text = fixture(`player/${videoId}.json`);
  if (!text) return null;
  const player = JSON.parse(text) as {
    videoDetails?: { author?: string };
    microformat?: { playerMicroformatRenderer?: { ownerProfileUrl?: string } };
  };
  const url = player.microformat?.playerMicroformatRenderer?.ownerProfileUrl;
  return url ? { name: player.videoDetails?.author ?? "", url } : null;
}

/** InnerTube answers prettyPrint=false requests with compact JSON; fixtures are stored indented. */
function compact(text: string): string {
  return JSON.stringify(JSON.parse(text));
}

interface InnertubeBody {
  context?: { client?: { clientName?: unknown; clientVersion?: unknown } };
  videoId?: unknown;
  serviceIntegrityDimensions?: { poToken?: unknown };
}

function innertubeBody(raw: string): InnertubeBody | null {
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed !== "object" || parsed === null) return null;
    const body = parsed as InnertubeBody;
    if (typeof body.context?.client?.clientName !== "string" || typeof body.context.client.clientVersion !== "string")
      return null;
    return body;
  } catch {
    return null;
  }
}

const TIMEDTEXT_TYPES: Record<string, string> = {
  json3: "application/json; charset=UTF-8",
  srv3: "text/xml; charset=UTF-8",
  vtt: "text/vtt; charset=UTF-8",
  xml: "text/xml; charset=UTF-8",
};

export async function startFakeYoutube(listenPort = 0): Promise<FakeYoutube> {
  const requests: RecordedRequest[] = [];
  const fake: FakeYoutube = {
    url: "",
    requests,
    timedtext: "normal",
    scenarios: new Map(),
    playlists: new Map(),
    channels: new Map(),
    playerDelayMs: 0,
    lookalikes: new Set(),
    close: async () => undefined,
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake.youtube");
      const body = Buffer.concat(chunks).toString("utf8");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      requests.push(recorded);

      if (url.pathname.startsWith("/youtubei/v1/")) {
        if (req.method !== "POST") return googleError(res, 405, "METHOD_NOT_ALLOWED", "Method Not Allowed");
        const endpoint = url.pathname.slice("/youtubei/v1/".length);
        const parsed = innertubeBody(body);
        if (!parsed) return googleError(res, 400, "INVALID_ARGUMENT", "Request contains an invalid argument.");
        recorded.client = String(parsed.context?.client?.clientName);
        if (typeof parsed.serviceIntegrityDimensions?.poToken === "string")
          recorded.poToken = parsed.serviceIntegrityDimensions.poToken;
        if (endpoint === "config")
          return send(res, 200, "application/json; charset=UTF-8", compact(fixture("config.json") as string));
        if (endpoint === "player") {
          const id = parsed.videoId;
          if (typeof id !== "string" || id === "")
            return googleError(res, 400, "INVALID_ARGUMENT", "Request contains an invalid argument.");
          const scenario = fake.scenarios.get(id);
          const answer = scenario ? (scenario[recorded.client] ?? scenario["*"]) : undefined;
          if (answer === "hang") return; // never answers: the caller's deadline must end it
          if (answer === "429")
            return send(res, 429, "text/html; charset=UTF-8", fixture("recorded/too_many_requests.html") as string);
          const found = answer
            ? fixture(`${answer}.json`)
            : fake.lookalikes.has(id)
              ? (fixture("player/Hq7sWc2dT4E.json") as string).replace(
                  /"videoId":\s*"Hq7sWc2dT4E"/g,
                  `"videoId":"${id}"`,
                )
              : /^[A-Za-z0-9_-]{11}$/.test(id)
                ? fixture(`player/${id}.json`)
                : null;
          if (answer && found === null) throw new Error(`fake YouTube: no fixture ${answer}.json`);
          const answer200 = () =>
            send(
              res,
              200,
              "application/json; charset=UTF-8",
              compact(found ?? (fixture("player/_unavailable.json") as string)),
            );
          if (fake.playerDelayMs > 0) return void setTimeout(answer200, fake.playerDelayMs);
          return answer200();
        }
        return googleError(res, 404, "NOT_FOUND", "Requested entity was not found.");
      }

      if (url.pathname === "/api/timedtext" && req.method === "GET") {
        if (fake.timedtext === "throttled")
          return send(res, 429, "text/html; charset=UTF-8", "<html><body>Too Many Requests</body></html>");
        const v = url.searchParams.get("v") ?? "";
        const lang = url.searchParams.get("lang") ?? "";
        const asr = url.searchParams.get("kind") === "asr";
        const fmt = url.searchParams.get("fmt") ?? "xml";
        if (!/^[A-Za-z0-9_-]{11}$/.test(v) || !/^[A-Za-z-]{2,12}$/.test(lang) || !(fmt in TIMEDTEXT_TYPES)) {
          return send(res, 404, "text/html; charset=UTF-8", "");
        }
        // A recorded video has one recorded track (classic XML, and json3 derived from it), served for each of its tracks.
        const content =
          fixture(`timedtext/${v}.${lang}${asr ? ".asr" : ""}.${fmt}`) ??
          fixture(`recorded/${v}.en.${fmt}`) ??
          fixture(`recorded/${v}.en.xml`);
        if (content === null) return send(res, 404, "text/html; charset=UTF-8", "");
        if (fake.timedtext === "empty") return send(res, 200, TIMEDTEXT_TYPES[fmt] as string, "");
        // Tracks marked exp=xpe answer an empty 200 unless a PO token comes with them (pot, potc=1, c).
        const tokenMissing =
          url.searchParams.get("exp") === "xpe" &&
          !(url.searchParams.get("pot") && url.searchParams.get("potc") === "1" && url.searchParams.get("c"));
        if (tokenMissing) return send(res, 200, TIMEDTEXT_TYPES[fmt] as string, "");
        return send(res, 200, TIMEDTEXT_TYPES[fmt] as string, content);
      }

      if (url.pathname === "/watch" && req.method === "GET") {
        const v = url.searchParams.get("v") ?? "";
        if (!/^[A-Za-z0-9_-]{11}$/.test(v)) return send(res, 404, "text/html; charset=UTF-8", "");
        const next = url.searchParams.get("next");
        return send(
          res,
          200,
          "text/html; charset=utf-8",
          watchPage(v, next && /^[A-Za-z0-9_-]{11}$/.test(next) ? next : null, ownerOf(v)),
        );
      }
      if (url.pathname === WATCH_MEDIA_PATH && req.method === "GET")
        return sendMedia(res, silenceWav(60), req.headers.range);

      const playlist =
        url.pathname === "/playlist" && req.method === "GET"
          ? fake.playlists.get(url.searchParams.get("list") ?? "")
          : undefined;
      if (playlist)
        return send(res, 200, "text/html; charset=utf-8", youtubePlaylistPage(url.searchParams.get("list")!, playlist));
      const tab = /^\/(?:channel\/(UC[\w-]{22})|@([\w.-]+))\/videos$/.exec(url.pathname);
      const channel =
        tab && req.method === "GET"
          ? [...fake.channels.values()].find((c) => c.id === tab[1] || c.handle === tab[2])
          : undefined;
      if (channel) return send(res, 200, "text/html; charset=utf-8", youtubeChannelPage(channel));

      send(
        res,
        404,
        "text/html; charset=UTF-8",
        "<!DOCTYPE html><html lang=en><title>Error 404 (Not Found)!!1</title></html>",
      );
    });
  });

  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return fake;
}
