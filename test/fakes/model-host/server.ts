/**
 * A fake of the model host (Hugging Face's `resolve/main/<file>` URLs): serves one file, honours
 * `Range: bytes=N-` with 206 as the real host does, and can cut the next response short or serve
 * different bytes of the same size. Counts requests and the bytes it sent.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeModelHost {
  baseUrl: string;
  requests: Array<{ path: string; range: string | null }>;
  /** Bytes of the file sent in all responses. */
  bytesSent(): number;
  /** The next response sends this many bytes of its body, then the connection is destroyed. */
  cutNextAfter(bytes: number): void;
  /** Every response from now on sends its body in 20 pieces, this many ms apart (a slow line). */
  slow(ms: number): void;
  /** Serve these bytes instead (a corrupt mirror). */
  serve(content: Buffer): void;
  /** Answer a Range request with the whole file and 200, as a host without range support does. */
  ignoreRange(ignore: boolean): void;
  close(): Promise<void>;
}

export async function startFakeModelHost(file: string, content: Buffer): Promise<FakeModelHost> {
  let body = content;
  let cut: number | null = null;
  let sent = 0;
  let pause = 0;
  let noRanges = false;
  const requests: FakeModelHost["requests"] = [];
  const server = http.createServer((req, res) => {
    const asked = req.headers.range ?? null;
    requests.push({ path: req.url ?? "", range: asked });
    const range = noRanges ? null : asked;
    if (req.url !== `/${file}`) {
      res.writeHead(404).end("Entry not found");
      return;
    }
    const from = range ? Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0) : 0;
    const slice = body.subarray(from);
    res.writeHead(range ? 206 : 200, {
      "content-type": "application/octet-stream",
      "content-length": String(slice.length),
      ...(range ? { "content-range": `bytes ${from}-${body.length - 1}/${body.length}` } : {}),
    });
    if (cut !== null) {
      const part = slice.subarray(0, cut);
      cut = null;
      sent += part.length;
      res.write(part, () => setTimeout(() => res.destroy(), 20));
      return;
    }
    if (pause > 0) {
      const step = Math.ceil(slice.length / 20);
      let at = 0;
      const next = () => {
        if (res.destroyed) return;
        const piece = slice.subarray(at, at + step);
        at += piece.length;
        sent += piece.length;
        if (at >= slice.length) res.end(piece);
        else res.write(piece, () => setTimeout(next, pause));
      };
      next();
      return;
    }
    sent += slice.length;
    res.end(slice);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    bytesSent: () => sent,
    cutNextAfter: (bytes) => (cut = bytes),
    slow: (ms) => (pause = ms),
    serve: (next) => (body = next),
    ignoreRange: (ignore) => (noRanges = ignore),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
