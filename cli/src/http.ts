import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";

// Requests over node:http(s). Not fetch: Node loads its fetch implementation on first use, which costs
// more start-up time than the whole rest of a `verbatim get` (see scripts/bench/cli.ts); and fetch has no
// upload progress.

export interface HttpAnswer {
  status: number;
  ok: boolean;
  text: string;
}

export function httpRequest(
  url: URL,
  init: { method: string; headers: Record<string, string | number>; body?: string | Readable; signal?: AbortSignal },
): Promise<HttpAnswer> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: init.method, headers: init.headers, signal: init.signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const status = response.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, text: Buffer.concat(chunks).toString("utf8") });
      });
    });
    request.on("error", reject);
    if (typeof init.body === "string" || init.body === undefined) request.end(init.body);
    else {
      init.body.on("error", (error) => request.destroy(error));
      init.body.pipe(request);
    }
  });
}
