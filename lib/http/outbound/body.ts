// The response body as the caller reads it: decoded, capped after decoding, its failures mapped, and bodies
// we do not read handed back or closed.
import { Readable } from "node:stream";
import zlib from "node:zlib";

import type { Dispatcher } from "undici";

import type { CallContext } from "./deadline";
import { timeoutError } from "./deadline";
import { OutboundError } from "./errors";
import { errCode, mapError, tooLarge } from "./map-error";

/** What we ask for and decode; anything else is passed through as sent. */
export const ACCEPT_ENCODING = "gzip, deflate, br";

/** A response head and its undecoded body, as undici gives it. */
export interface Answer {
  status: number;
  headers: Dispatcher.ResponseData["headers"];
  body: Dispatcher.ResponseData["body"];
}

function toHeaders(raw: Dispatcher.ResponseData["headers"]): Headers {
  const h = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === undefined) continue;
      try {
        h.append(name, v);
      } catch {
        // A header value Headers will not hold: drop it rather than fail the whole response.
      }
    }
  }
  return h;
}

export function headerValue(raw: Dispatcher.ResponseData["headers"], name: string): string | null {
  const v = raw[name];
  if (v === undefined) return null;
  return Array.isArray(v) ? (v[0] ?? null) : v;
}

/** A zlib decoder for a single content-coding we asked for, else null (the body is passed as sent). */
function decoderFor(encoding: string | null): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/** Closes a body (and its connection) we will not read; its "Request aborted" error is expected. */
export function drop(body: Readable): void {
  body.on("error", () => undefined);
  if (!body.destroyed) body.destroy();
}

/** Drains a body we do not want so its connection goes back to the pool (a small one), else closes it. */
export function discard(body: Dispatcher.ResponseData["body"]): void {
  body.dump({ limit: 64 * 1024 }).catch(() => undefined);
}

export /**
 * The body as the caller reads it: decoded when it came compressed, capped at `maxBytes` (decoded
 * bytes: a small gzip bomb cannot get past it), failures reported as OutboundError.
 */
function cappedBody(
  res: Answer,
  method: string,
  maxBytes: number,
  ctx: CallContext,
  onDone: () => void,
): { body: Readable; headers: Headers } {
  const headers = toHeaders(res.headers);
  const decoder =
    method === "HEAD" || res.status === 204 || res.status === 304 ? null : decoderFor(headers.get("content-encoding"));
  if (decoder) {
    headers.delete("content-encoding");
    headers.delete("content-length");
    res.body.on("error", (err) => decoder.destroy(err));
    res.body.pipe(decoder);
  }
  const stream: Readable = decoder ?? res.body;
  let received = 0;
  let ended = false;
  const signal = ctx.controller.signal;
  const out = new Readable({
    read() {
      stream.resume();
    },
    destroy(err, cb) {
      finish();
      drop(res.body);
      if (decoder) drop(decoder);
      cb(err);
    },
  });
  const onAbort = () => out.destroy(mapError(signal.reason, ctx) as Error);
  signal.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    signal.removeEventListener("abort", onAbort);
    onDone();
  };

  stream.on("data", (chunk: Buffer) => {
    if (out.destroyed) return;
    received += chunk.length;
    if (received > maxBytes) {
      out.destroy(tooLarge(maxBytes));
      return;
    }
    if (!out.push(chunk)) stream.pause();
  });
  stream.once("end", () => {
    ended = true;
    finish();
    out.push(null);
  });
  stream.on("error", (err) => {
    if (!out.destroyed) {
      const mapped =
        decoder && errCode(err).startsWith("Z_")
          ? new OutboundError("upstream_failed", "The upstream server sent a corrupt compressed body.", {
              cause: err,
            })
          : mapError(err, ctx);
      out.destroy(mapped as Error);
    }
  });
  stream.once("close", () => {
    if (!ended && !out.destroyed) {
      out.destroy(
        ctx.timedOut
          ? timeoutError()
          : new OutboundError("upstream_failed", "The upstream server closed the connection early."),
      );
    }
  });
  return { body: out, headers };
}
