import type http from "node:http";

// Server Action bodies Next.js cannot decode: a multipart form cut short (its parser's "Unexpected end of
// form") and an action call whose arguments are not a JSON array (React's decodeReply) make Next answer a
// plain 500. The request guard reads such a POST's body first (at most MAX_CHECKED_BYTES, with a
// Content-Length), checks it, and puts it back on the request for Next to read as if untouched.

const MAX_CHECKED_BYTES = 2 * 1024 * 1024;

/** Why Next could not decode this Server Action body, or null. */
export function actionBodyProblem(headers: http.IncomingHttpHeaders, body: Buffer): string | null {
  const type = String(headers["content-type"] ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(String(headers["content-type"]));
    const mark = boundary?.[1] ?? boundary?.[2];
    if (!mark) return "The form has no multipart boundary.";
    const text = body.toString("latin1");
    if (!text.startsWith(`--${mark}`) || !text.includes(`--${mark}--`))
      return "The form body is cut short or not multipart.";
    return null;
  }
  if (headers["next-action"] !== undefined && !type.startsWith("application/x-www-form-urlencoded")) {
    try {
      if (Array.isArray(JSON.parse(body.toString("utf8")))) return null;
    } catch {
      // falls through
    }
    return "The Server Action's arguments are not a JSON array.";
  }
  return null;
}

/**
 * Reads the whole body (when it declares a Content-Length of at most MAX_CHECKED_BYTES) and puts it back
 * on the stream; null when it was not read (no or too large a Content-Length: Next applies its own limit).
 */
export function readAndPutBack(request: http.IncomingMessage): Promise<Buffer | null> {
  const declared = Number(request.headers["content-length"]);
  if (
    !Number.isInteger(declared) ||
    declared < 0 ||
    declared > MAX_CHECKED_BYTES ||
    request.headers["transfer-encoding"]
  )
    return Promise.resolve(null);
  if (declared === 0) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let finished = false;
    const finish = (body: Buffer | null) => {
      if (finished) return;
      finished = true;
      request.off("readable", onReadable);
      request.off("error", onError);
      request.off("end", onEnd);
      // Back at the front of the stream, before its end is emitted: Next reads it as sent. (A client that
      // went away early leaves a stream that has ended: nothing to put back, Next sees it as it is.)
      try {
        if (chunks.length > 0 && !request.readableEnded) request.unshift(Buffer.concat(chunks));
      } catch {
        // ended meanwhile
      }
      // Let removing the "readable" listener take effect (the stream leaves paused mode) before Next reads.
      setImmediate(() => resolve(body));
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while (received < declared && (chunk = request.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        received += chunk.length;
      }
      if (received >= declared) finish(Buffer.concat(chunks));
    };
    const onError = () => finish(null);
    const onEnd = () => finish(Buffer.concat(chunks));
    request.on("readable", onReadable);
    request.on("error", onError);
    request.on("end", onEnd);
  });
}
