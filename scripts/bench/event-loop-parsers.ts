// The event-loop suite's untrusted documents (event-loop.ts): every parser at the size bound of what reaches
// it (caption tracks: 20 MiB from YouTube and yt-dlp; podcast transcripts: 10 MiB; a corrected file in a
// PATCH: 4 MiB; feeds: PODCAST_FEED_MAX_BYTES, parsed in a worker), in the shapes that cost a parser most,
// real automatic tracks of 3 and 12 hours, and the largest tracks TRACK_BOUNDS admit,
// and the routes that take something other than a JSON body (/mcp, the Stripe webhook, the upload target).
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { answerCaptionJob, TRACK_BOUNDS, type CaptionJob } from "../../lib/captions/caption-job";
import type { Segment } from "../../lib/formats/types";
import { MiB } from "./event-loop-bodies";
import { lowestOf, measureRequests, request, RUNS, worstHold, type Measured } from "./event-loop-hold";

/** `make(i)` for i = 0, 1, ... joined until `bytes` is reached. */
function fill(bytes: number, make: (i: number) => string, head = "", tail = ""): string {
  const parts: string[] = [head];
  let used = head.length + tail.length;
  for (let i = 0; used < bytes; i++) {
    const part = make(i);
    if (used + part.length > bytes) break;
    parts.push(part);
    used += part.length;
  }
  parts.push(tail);
  return parts.join("");
}

const clock = (ms: number, sep = ".") => {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}${sep}${String(ms % 1000).padStart(3, "0")}`;
};

/** The real 20-minute automatic json3 track (test/fixtures/captions), repeated with shifted times to `hours`. */
function realTrack(hours: number): string {
  const file = path.join(process.cwd(), "test/fixtures/captions/ytenglishhub.auto.en.json3");
  const real = JSON.parse(readFileSync(file, "utf8")) as { events: { tStartMs?: number }[] };
  const span = 1_210_000;
  const events: unknown[] = [];
  for (let copy = 0; copy * span < hours * 3_600_000; copy++)
    for (const e of real.events) events.push({ ...e, tStartMs: (e.tStartMs ?? 0) + copy * span });
  // YouTube sends json3 indented, as the fixture was.
  return JSON.stringify({ wireMagic: "pb3", events }, null, 2);
}

/** name → [format, body, kind of track] at the bound of what reaches the parser. */
function captionDocuments(): Record<string, { format: string; body: string; kind: "manual" | "auto" }> {
  const track = 20 * MiB;
  const podcast = 10 * MiB;
  const edit = 4 * MiB;
  const { maxSegments, maxTextChars, maxWords } = TRACK_BOUNDS;
  return {
    "real json3 auto track, 3 hours": { format: "json3", kind: "auto", body: realTrack(3) },
    "real json3 auto track, 12 hours": { format: "json3", kind: "auto", body: realTrack(12) },
    [`json3 auto at the track bounds: ${maxSegments} lines, ${3 * maxSegments} words (${maxWords} kept)`]: {
      format: "json3",
      kind: "auto",
      body: `{"events":[${Array.from(
        { length: maxSegments },
        (_, i) =>
          `{"tStartMs":${i * 3000},"dDurationMs":2900,"segs":[{"utf8":"w${i}"},{"utf8":" x${i}","tOffsetMs":900},{"utf8":" y${i}","tOffsetMs":1900}]}`,
      ).join(",")}]}`,
    },
    [`srt at the track bounds: ${maxSegments} lines, ${maxTextChars} characters`]: {
      format: "srt",
      kind: "manual",
      body: Array.from(
        { length: maxSegments },
        (_, i) =>
          `${i + 1}\n${clock(i * 2000, ",")} --> ${clock(i * 2000 + 1900, ",")}\n${`${i} `.padEnd(Math.floor(maxTextChars / maxSegments) - 1, "w")}\n`,
      ).join("\n"),
    },
    "json3 auto, word-timed events": {
      format: "json3",
      kind: "auto",
      body: fill(
        track,
        (i) =>
          `${i ? "," : ""}{"tStartMs":${i * 400},"dDurationMs":2000,"segs":[{"utf8":"w${i % 97}"},{"utf8":" x${i % 89}","tOffsetMs":200}]}`,
        '{"events":[',
        "]}",
      ),
    },
    "vtt auto, rolling word-timed cues": {
      format: "vtt",
      kind: "auto",
      body: fill(
        track,
        (i) =>
          `${clock(i * 2000)} --> ${clock(i * 2000 + 1990)} align:start position:0%\nw${(i - 1) % 97} x${(i - 1) % 89}\nw${i % 97}<${clock(i * 2000 + 500)}><c> x${i % 89}</c>\n\n`,
        "WEBVTT\nKind: captions\nLanguage: en\n\n",
      ),
    },
    "srt, one cue of 20 MiB text": {
      format: "srt",
      kind: "manual",
      body: `1\n00:00:00,000 --> 00:00:05,000\n${"word ".repeat(track / 5 - 10)}\n`,
    },
    "srt, 2-word cues": {
      format: "srt",
      kind: "manual",
      body: fill(track, (i) => `${i + 1}\n${clock(i * 1000, ",")} --> ${clock(i * 1000 + 900, ",")}\nw${i % 97} x\n\n`),
    },
    "srv3, unclosed <p> elements": {
      format: "srv3",
      kind: "auto",
      body: fill(track, (i) => `<p t="${i}" d="1">w `, "<timedtext><body>", "</body></timedtext>"),
    },
    "srv3, unclosed <s> in one <p>": {
      format: "srv3",
      kind: "auto",
      body: fill(track, () => `<s t="1">w `, '<timedtext><body><p t="0" d="1">', "</p></body></timedtext>"),
    },
    "classic XML, unclosed <text> elements": {
      format: "transcript",
      kind: "manual",
      body: fill(track, (i) => `<text start="${i}" dur="1">w `, "<transcript>", "</transcript>"),
    },
    "ttml, unclosed <p> elements": {
      format: "ttml",
      kind: "manual",
      body: fill(
        track,
        (i) => `<p begin="${i}s" end="${i + 1}s">w `,
        '<tt xmlns="http://www.w3.org/ns/ttml"><body><div>',
        "</div></body></tt>",
      ),
    },
    "podcast JSON, 1-word segments": {
      format: "podcast-json",
      kind: "manual",
      body: fill(
        podcast,
        (i) => `${i ? "," : ""}{"startTime":${i / 2},"endTime":${i / 2 + 0.5},"body":"w${i % 97}"}`,
        '{"version":"1.0.0","segments":[',
        "]}",
      ),
    },
    "podcast HTML, <time> marks": {
      format: "podcast-html",
      kind: "manual",
      body: fill(
        podcast,
        (i) => `<cite>S:</cite><time>${Math.floor(i / 60)}:${String(i % 60).padStart(2, "0")}</time><p>w x</p>`,
      ),
    },
    "podcast HTML, unclosed <cite>s": {
      format: "podcast-html",
      kind: "manual",
      body: fill(podcast, () => "<cite>", "<time>0:01</time><p>", "</p>"),
    },
    "PATCH file (srt), 2-word cues at 4 MiB": {
      format: "srt",
      kind: "manual",
      body: fill(edit, (i) => `${i + 1}\n${clock(i * 1000, ",")} --> ${clock(i * 1000 + 900, ",")}\nw${i % 97} x\n\n`),
    },
  };
}

/**
 * Each document read as the app reads it now: off the event loop (lib/captions/parse-off-thread.ts), and for
 * a platform's track what lib/transcripts/fetch-captions.ts then does on the loop with its segments
 * (normalizing, bounding the word times, and the JSON text the store sends), all in the one hold measured.
 * A PATCH's file is read where lib/edits reads it: a large one in the save's thread (save-off-thread.ts), with
 * what the save then does on the loop with the thread's answer.
 */
export async function benchParsers(filter?: string): Promise<Measured[]> {
  const { normalizeSegments } = await import("../../lib/formats");
  const { boundStoredWords } = await import("../../lib/formats/stored-words");
  const { parseCaptionsOffThread } = await import("../../lib/captions/parse-off-thread");
  const { prepareSaveOffThread } = await import("../../lib/edits/save-off-thread");
  const out: Measured[] = [];
  for (const [name, doc] of Object.entries(captionDocuments())) {
    const label = `parser: ${name}`;
    if (filter && !label.includes(filter)) continue;
    const format = doc.format as CaptionJob["format"];
    const onLoop = name.startsWith("PATCH");
    let outcome = "";
    const ms = await lowestOf(RUNS, async () => {
      // As the providers hand a track over: its bytes, moved to the thread.
      const bytes = Buffer.from(doc.body);
      return worstHold(async () => {
        try {
          if (onLoop) {
            const saved = await prepareSaveOffThread(
              {
                kind: "edit",
                body: { format: "srt", content: doc.body },
                current: [],
                maxEnd: Number.MAX_SAFE_INTEGER,
              },
              { threads: 1, timeoutMs: 60_000 },
            );
            outcome = saved.ok
              ? `${saved.segmentCount} segments, ${(saved.sizeBytes / MiB).toFixed(1)} MiB stored; read in the save's thread`
              : `refused in the save's thread: ${saved.problems[0]!.msg}`;
            return;
          }
          const segments = boundStoredWords(normalizeSegments(await parseCaptionsOffThread(bytes, format!, doc.kind)));
          const words = segments.reduce((n, segment) => n + (segment.words?.length ?? 0), 0);
          const stored = JSON.stringify(segments).length;
          outcome = `${segments.length} segments, ${words} word times, ${(stored / MiB).toFixed(1)} MiB stored; parsed in a worker thread`;
        } catch (error) {
          outcome = `refused: ${(error as Error).message}`;
        }
      });
    });
    const mib = `${(doc.body.length / MiB).toFixed(1)} MiB`;
    console.log(`  ${label.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms  (${mib}; ${outcome})`);
    out.push({ label, worstMs: ms, worstBody: mib, statuses: outcome });
    if (outcome.includes("in a worker thread"))
      out.push(...loopShare(label, doc.body, format!, doc.kind, normalizeSegments, boundStoredWords));
  }
  return out;
}

/**
 * The event loop's own share of an admitted track, without the thread: the answer's JSON.parse, then what
 * lib/transcripts/fetch-captions.ts does (normalizing, bounding word times, the store's JSON), timed as one
 * synchronous run, the lowest of 7. On a busy machine the hold above also counts the stalls of sharing its
 * cores with the parse thread and everything else; this is the work itself.
 */
function loopShare(
  label: string,
  body: string,
  format: CaptionJob["format"],
  track: CaptionJob["track"],
  normalizeSegments: (segments: Segment[]) => Segment[],
  boundStoredWords: (segments: Segment[]) => Segment[],
): Measured[] {
  const answer = answerCaptionJob({ kind: "captions", body, format, track });
  if (!answer.ok) return [];
  let lowest = Infinity;
  for (let run = 0; run < 7; run++) {
    const start = performance.now();
    JSON.stringify(boundStoredWords(normalizeSegments(JSON.parse(answer.json) as Segment[])));
    lowest = Math.min(lowest, performance.now() - start);
  }
  const share = `${label} (the loop's share)`;
  console.log(`  ${share.padEnd(48)} ${lowest.toFixed(1).padStart(8)} ms  (lowest of 7)`);
  return [{ label: share, worstMs: lowest, worstBody: "", statuses: "" }];
}

/** A local server answering `documents[path]`. */
async function serve(documents: Record<string, { type: string; body: Buffer }>) {
  const server = http.createServer((req, res) => {
    const doc = documents[req.url ?? ""];
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": doc.type, "content-length": doc.body.length }).end(doc.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * A feed of `bytes` (at most `items` items): items with audio and a published transcript each (each
 * remembered per user).
 */
function bigFeed(bytes: number, items = Infinity): Buffer {
  return Buffer.from(
    fill(
      bytes,
      (i) =>
        i >= items
          ? "\n".repeat(bytes) // longer than the room left: fill() stops here
          : `<item><guid>g${i}</guid><title>Episode ${i}</title><enclosure url="https://cdn.example/${i}.mp3" type="audio/mpeg"/><podcast:transcript url="https://cdn.example/${i}.vtt" type="text/vtt"/></item>`,
      '<?xml version="1.0"?><rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Big</title>',
      "</channel></rss>",
    ),
  );
}

export async function benchSpecialRoutes(opts: {
  filter?: string;
  headers: Record<string, string>;
  userId: string;
}): Promise<Measured[]> {
  const out: Measured[] = [];
  const want = (label: string) => !opts.filter || label.includes(opts.filter);
  const json = { ...opts.headers, "content-type": "application/json", accept: "application/json, text/event-stream" };

  if (want("POST /mcp")) {
    const mcp = (await import("../../app/mcp/route")).POST;
    const rpc = (id: number, method: string, params: unknown = {}) =>
      JSON.stringify({ jsonrpc: "2.0", id, method, params });
    const batch = (make: (i: number) => string) => `[${fill(MiB - 2, (i) => `${i ? "," : ""}${make(i)}`)}]`;
    const bodies = {
      "1 MiB batch of tools/list": batch((i) => rpc(i, "tools/list")),
      "1 MiB batch of unknown tool calls": batch((i) => rpc(i, "tools/call", { name: "nope", arguments: {} })),
      "1 MiB batch of pings": batch((i) => rpc(i, "ping")),
      "get_transcript with a 1 MiB url": rpc(1, "tools/call", {
        name: "get_transcript",
        arguments: { url: `https://www.youtube.com/watch?v=${"a".repeat(MiB - 200)}` },
      }),
    };
    await mcp(request("/mcp", { method: "POST", headers: json, body: rpc(1, "tools/list") }));
    out.push(
      await measureRequests(
        "POST /mcp",
        mcp as never,
        Object.entries(bodies).map(([name, body]) => ({
          name,
          build: () => request("/mcp", { method: "POST", headers: json, body }),
        })),
      ),
    );
  }

  if (want("POST /v1/webhooks/billing (signed)")) {
    const billing = (await import("../../app/v1/webhooks/billing/route")).POST;
    const stripe = new Stripe("sk_test_event_loop_bench");
    const event = (data: string) =>
      `{"id":"evt_bench","object":"event","type":"customer.subscription.updated","data":{"object":{"customer":"cus_none","items":${data}}}}`;
    const payloads = {
      "1 MiB event, wide array": event(`[${fill(MiB - 200, (i) => `${i ? "," : ""}{}`)}]`),
      "1 MiB event, long string": event(`"${"a".repeat(MiB - 200)}"`),
    };
    out.push(
      await measureRequests(
        "POST /v1/webhooks/billing (signed)",
        billing as never,
        Object.entries(payloads).map(([name, payload]) => ({
          name,
          build: () =>
            request("/v1/webhooks/billing", {
              method: "POST",
              headers: {
                "content-type": "application/json",
                "stripe-signature": stripe.webhooks.generateTestHeaderString({
                  payload,
                  secret: "whsec_event_loop_bench",
                }),
              },
              body: payload,
            }),
        })),
      ),
    );
  }

  if (want("POST /v1/podcast/resolve (feed)") || want("POST /v1/import (feed)")) {
    const { env } = await import("../../lib/env");
    const { FEED_BOUNDS } = await import("../../lib/podcasts/feed-bounds");
    // At the byte bound the feed has more elements than FEED_BOUNDS admits (a 422); the largest feed both
    // bounds admit is read in full, and its first page of episodes remembered.
    const refused = bigFeed(env().PODCAST_FEED_MAX_BYTES - 1024);
    const items = Math.floor((FEED_BOUNDS.maxElements - 8) / 5);
    const admitted = bigFeed(env().PODCAST_FEED_MAX_BYTES - 1024, items);
    const host = await serve({
      "/refused.xml": { type: "application/rss+xml", body: refused },
      "/admitted.xml": { type: "application/rss+xml", body: admitted },
    });
    const feeds = {
      [`${(refused.length / MiB).toFixed(0)} MiB feed, past the element bound`]: "/refused.xml",
      [`${(admitted.length / MiB).toFixed(1)} MiB feed of ${items} items with transcripts`]: "/admitted.xml",
    };
    try {
      for (const [label, path] of [
        ["POST /v1/podcast/resolve (feed)", "/v1/podcast/resolve"],
        ["POST /v1/import (feed)", "/v1/import"],
      ] as const) {
        if (!want(label)) continue;
        const route = (await import(`../../app${path}/route`)) as { POST: never };
        out.push(
          await measureRequests(
            label,
            route.POST,
            Object.entries(feeds).map(([name, feed]) => ({
              name,
              build: () =>
                request(path, {
                  method: "POST",
                  headers: json,
                  body: JSON.stringify({ url: `${host.origin}${feed}` }),
                }),
            })),
          ),
        );
      }
    } finally {
      host.close();
    }
  }
  return out;
}
