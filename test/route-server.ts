import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";

type Handler = (request: NextRequest, route: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export type RouteTable = Record<string, Partial<Record<"GET" | "POST", () => Promise<Handler>>>>;

/**
 * Serves route handlers over real HTTP (node:http) so that third-party clients (openid-client, SDKs)
 * can talk to them as to the running app. Routes are loaded on first use, after the caller has set
 * the environment (APP_URL = this server's origin).
 */
export async function startRouteServer(routes: RouteTable) {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", origin);
      const load = routes[url.pathname]?.[req.method as "GET" | "POST"];
      if (!load) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Not found.", code: "not_found" }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const body = chunks.length && req.method !== "GET" ? Buffer.concat(chunks) : undefined;
      const request = new NextRequest(url, { method: req.method, headers, body });
      const response = await (await load())(request, { params: Promise.resolve({}) });
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
