import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { peerHeaderName } from "@/lib/http/client-address";
import { installRequestGuard, refusal, routeTable } from "@/lib/http/request-guard";
import { allEndpoints } from "@/lib/openapi/endpoints";

const table = routeTable(allEndpoints);

describe("the request guard", () => {
  it("lets through what Next.js can represent and the endpoint table serves", () => {
    expect(refusal("GET", "/v1/languages?url=x", table)).toBeNull();
    expect(refusal("HEAD", "/v1/languages", table)).toBeNull();
    expect(refusal("OPTIONS", "/v1/transcript", table)).toBeNull();
    expect(refusal("POST", "/v1/transcript", table)).toBeNull();
    expect(refusal("GET", "/v1/jobs/abc", table)).toBeNull();
    expect(refusal("GET", "/dashboard", table)).toBeNull();
    expect(refusal("POST", "/signin", table)).toBeNull(); // server actions
    expect(refusal("DELETE", "/v1/no/such/path", table)).toBeNull(); // the catch-all route answers 404
    expect(refusal("GET", "/v1/jobs/a%00", table)).toBeNull(); // decodes; the schema layer refuses the NUL
  });

  it("matches a fixed path before a parameterised one, whichever comes first in the list", () => {
    for (const routes of [
      [
        { method: "DELETE", path: "/v1/things/{id}" },
        { method: "POST", path: "/v1/things/special" },
      ],
      [
        { method: "POST", path: "/v1/things/special" },
        { method: "DELETE", path: "/v1/things/{id}" },
      ],
    ] as const) {
      const routesTable = routeTable(routes);
      expect(routesTable.match("/v1/things/special")).toContain("POST");
      expect(routesTable.template("/v1/things/special")).toBe("/v1/things/special");
      expect(routesTable.match("/v1/things/abc")).toContain("DELETE");
      expect(routesTable.template("/v1/things/abc")).toBe("/v1/things/{id}");
    }
    expect(table.template("/v1/public/index")).toBe("/v1/public/index");
    expect(table.template("/v1/me/webhooks/request-secret")).toBe("/v1/me/webhooks/request-secret");
  });

  it("refuses methods the fetch standard cannot carry, undecodable paths, and methods a described path does not serve", () => {
    for (const method of ["TRACE", "TRACK", "PROPFIND", "FOO"]) {
      expect(refusal(method, "/v1/languages", table)).toMatchObject({
        status: 405,
        body: { code: "method_not_allowed" },
      });
    }
    for (const url of ["/v1/jobs/%zz", "/v1/jobs/%E0%A4%A", "/docs/assets/%", "/%C0%AF"]) {
      expect(refusal("GET", url, table)).toEqual({
        status: 400,
        body: { detail: "The request path is not valid percent-encoding.", code: "invalid_path" },
        headers: {},
      });
    }
    expect(refusal("DELETE", "/v1/languages", table)).toEqual({
      status: 405,
      body: { detail: "DELETE is not served at this path; it serves GET, HEAD, OPTIONS.", code: "method_not_allowed" },
      headers: { allow: "GET, HEAD, OPTIONS" },
    });
    expect(refusal("GET", "/v1/transcript", table)).toMatchObject({ status: 405, headers: { allow: "OPTIONS, POST" } });
    expect(refusal("PUT", "/v1/jobs/abc", table)).toMatchObject({
      status: 405,
      headers: { allow: "GET, HEAD, OPTIONS" },
    });
  });

  it("refuses the asterisk-form target, and outside /v1 paths or queries holding NUL (pages, OAuth, /mcp)", () => {
    for (const method of ["OPTIONS", "GET", "POST"]) {
      expect(refusal(method, "*", table)).toMatchObject({ status: 400, body: { code: "invalid_path" } });
    }
    for (const url of [
      "/explore?q=%00",
      "/explore?q=a%00b&page=2",
      "/t/%00",
      "/dashboard/history?q=%00",
      "/oauth/authorize?client_id=%00",
      "/signin?x%00=1",
    ]) {
      expect(refusal("GET", url, table), url).toMatchObject({
        status: 400,
        body: { code: "invalid_text", detail: expect.stringMatching(/NUL/) },
      });
    }
    expect(refusal("GET", "/explore?q=caf%C3%A9", table)).toBeNull();
    expect(refusal("GET", "/v1/languages?url=%00", table)).toBeNull(); // the REST API's own 422
    expect(refusal("POST", "/oauth/token?x=%00", table)).toBeNull(); // OAuth's own {error, error_description}
  });

  it("refuses a Server Action or form POST to a page from another origin with 403, as Next would (without its 500)", () => {
    const action = { "next-action": "7f00aa", host: "app.example", "content-type": "text/plain;charset=UTF-8" };
    expect(refusal("POST", "/signin", table, { ...action, origin: "https://evil.example" })).toMatchObject({
      status: 403,
      body: { code: "forbidden" },
    });
    expect(refusal("POST", "/signin", table, { ...action, origin: "null" })).toMatchObject({ status: 403 });
    const form = {
      host: "app.example",
      "content-type": "multipart/form-data; boundary=x",
      origin: "https://evil.example",
    };
    expect(refusal("POST", "/dashboard/settings", table, form)).toMatchObject({ status: 403 });
    // Same origin, no Origin at all, a forwarded host that matches, and non-page routes pass.
    expect(refusal("POST", "/signin", table, { ...action, origin: "https://app.example" })).toBeNull();
    expect(refusal("POST", "/signin", table, action)).toBeNull();
    expect(
      refusal("POST", "/signin", table, {
        ...action,
        host: "10.0.0.5:3000",
        "x-forwarded-host": "app.example",
        origin: "https://app.example",
      }),
    ).toBeNull();
    expect(
      refusal("POST", "/oauth/token", table, { ...form, "content-type": "application/x-www-form-urlencoded" }),
    ).toBeNull();
    expect(refusal("POST", "/v1/transcript", table, form)).toBeNull();
  });

  it("guards the OAuth consent page like /device: a Server Action or form from another origin is a 403", () => {
    const action = {
      "next-action": "0".repeat(42),
      host: "app.example",
      "content-type": "text/plain;charset=UTF-8",
      origin: "https://evil.example",
    };
    for (const page of ["/device", "/oauth/authorize"]) {
      expect(refusal("POST", page, table, action), page).toMatchObject({ status: 403, body: { code: "forbidden" } });
      expect(refusal("POST", `${page}?client_id=x`, table, action), page).toMatchObject({ status: 403 });
      expect(
        refusal("POST", page, table, { ...action, "next-action": undefined, "content-type": "multipart/form-data" }),
      ).toMatchObject({ status: 403 });
      expect(refusal("POST", page, table, { ...action, origin: "https://app.example" }), page).toBeNull();
    }
    // The OAuth route handlers are not pages: a connector's server (or a browser app) posts forms there.
    for (const handler of ["/oauth/token", "/oauth/register", "/oauth/revoke"]) {
      expect(
        refusal("POST", handler, table, { ...action, "content-type": "application/x-www-form-urlencoded" }),
        handler,
      ).toBeNull();
    }
  });

  it("matches a path with dot segments as Next.js routes it, so the answer has the JSON shape", () => {
    // Next.js serves /v1/me/webhooks/./deliveries as /v1/me/webhooks/deliveries: the {id} route, DELETE only.
    for (const path of [
      "/v1/me/webhooks/./deliveries",
      "/v1/me/webhooks/%2e/deliveries",
      "/v1/me/webhooks/x/../deliveries",
    ]) {
      expect(refusal("GET", path, table), path).toMatchObject({
        status: 405,
        body: { code: "method_not_allowed" },
        headers: { allow: "DELETE, OPTIONS" },
      });
    }
    expect(refusal("GET", "/v1/me/webhooks/abc/deliveries", table)).toBeNull();
    expect(refusal("DELETE", "/v1/me/webhooks/./deliveries", table)).toBeNull();
  });

  it("answers on a real Node.js server before its request listener runs", async () => {
    const uninstall = installRequestGuard(table);
    let reached = 0;
    const peers: (string | string[] | undefined)[] = [];
    const server = http.createServer((request, response) => {
      reached++;
      peers.push(request.headers[peerHeaderName()]);
      response.end("next");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const send = (method: string, path: string) =>
      new Promise<{ status: number; body: string; allow?: string }>((resolve, reject) => {
        const request = http.request({ host: "127.0.0.1", port, method, path }, (response) => {
          let body = "";
          response.on("data", (chunk) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, body, allow: response.headers.allow }));
        });
        request.on("error", reject);
        request.end();
      });
    try {
      const trace = await send("TRACE", "/v1/languages");
      expect(trace.status).toBe(405);
      expect(JSON.parse(trace.body)).toMatchObject({ code: "method_not_allowed" });
      expect((await send("GET", "/v1/jobs/%zz")).status).toBe(400);
      for (const method of ["OPTIONS", "GET", "POST"]) {
        const star = await send(method, "*");
        expect(star.status, method).toBe(400);
        expect(JSON.parse(star.body)).toMatchObject({ code: "invalid_path" });
      }
      expect(JSON.parse((await send("GET", "/explore?q=%00")).body)).toMatchObject({ code: "invalid_text" });
      const wrong = await send("DELETE", "/v1/languages");
      expect(wrong).toMatchObject({ status: 405, allow: "GET, HEAD, OPTIONS" });
      const long = await send("GET", `/v1/languages?url=${"a".repeat(20_000)}`);
      expect(long.status).toBe(431);
      // The same answer to HEAD has no body (a client reading one fails with "Data after Connection: close").
      expect(await send("HEAD", `/explore?page=${"a".repeat(20_000)}`)).toMatchObject({ status: 431, body: "" });
      expect(JSON.parse(long.body)).toEqual({
        detail: "The request line and headers are larger than 16 KiB.",
        code: "headers_too_large",
      });
      expect(reached).toBe(0);
      expect(await send("GET", "/v1/languages")).toMatchObject({ status: 200, body: "next" });
      expect(reached).toBe(1);
      // What the app sees as the peer is the socket's address (the client-address rule with no trusted proxy).
      expect(peers).toEqual(["127.0.0.1"]);
    } finally {
      uninstall();
      server.close();
    }
  });
});

describe("Server Action bodies", () => {
  it("a body Next cannot decode is a 400; a sound one reaches the server whole, as sent", async () => {
    const uninstall = installRequestGuard(table);
    const seen: string[] = [];
    const server = http.createServer((request, response) => {
      let body = "";
      request.setEncoding("latin1");
      request.on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        seen.push(body);
        response.end(`read ${body.length}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const post = (headers: Record<string, string>, body: string, path = "/signin") =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path,
            headers: { ...headers, "content-length": Buffer.byteLength(body, "latin1") },
          },
          (response) => {
            let text = "";
            response.on("data", (chunk) => (text += chunk));
            response.on("end", () => resolve({ status: response.statusCode!, body: text }));
          },
        );
        request.on("error", reject);
        // In pieces, as a slow client would send it.
        const bytes = Buffer.from(body, "latin1");
        for (let i = 0; i < bytes.length; i += 16 * 1024) request.write(bytes.subarray(i, i + 16 * 1024));
        request.end();
      });
    const multipart = { "content-type": "multipart/form-data; boundary=b0" };
    const form = `--b0\r\nContent-Disposition: form-data; name="email"\r\n\r\n${"x".repeat(100_000)}\r\n--b0--\r\n`;
    try {
      expect(await post(multipart, form)).toEqual({ status: 200, body: `read ${form.length}` });
      expect(seen).toEqual([form]);
      const cut = await post(multipart, form.slice(0, 5_000));
      expect(cut.status).toBe(400);
      expect(JSON.parse(cut.body)).toMatchObject({ code: "invalid_body" });
      const action = { "next-action": "7f00", "content-type": "text/plain;charset=UTF-8" };
      for (const junk of ["[1,2", "", "{}", "nul"]) expect((await post(action, junk)).status, junk).toBe(400);
      expect(await post(action, '["a",{"b":1}]')).toEqual({ status: 200, body: "read 13" });
      expect(seen).toHaveLength(2);
      // The consent page, from its own origin: a form cut short is a 400 too, not Next's 500.
      const consent = "/oauth/authorize?client_id=c&redirect_uri=https%3A%2F%2Fc.example%2Fcb";
      const cutConsent = await post(multipart, form.slice(0, 5_000), consent);
      expect(cutConsent.status).toBe(400);
      expect(JSON.parse(cutConsent.body)).toMatchObject({ code: "invalid_body" });
      expect((await post(action, "[1,2", consent)).status).toBe(400);
      expect(await post(multipart, form, consent)).toEqual({ status: 200, body: `read ${form.length}` });
    } finally {
      uninstall();
      server.close();
    }
  });
});
