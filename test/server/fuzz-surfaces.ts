// The fuzzer's cases beyond the REST operations (test/server/fuzz.test.ts): pages, Server Actions, the MCP
// endpoint's JSON-RPC messages, and request targets only a raw socket can send. Each case is a request;
// the check is the same for all: never a 5xx (pages answer HTML, so their shape is not checked here).
import net from "node:net";
import { enc, hostileString, nested, type Json, type Rng } from "./fuzz";

/** The app's pages; `{slug}` is filled with hostile ids. */
export const PAGES = [
  "/",
  "/explore",
  "/t/{slug}",
  "/signin",
  "/signin/check-email",
  "/device",
  "/oauth/authorize",
  "/dashboard",
  "/dashboard/history",
  "/dashboard/imports",
  "/dashboard/keys",
  "/dashboard/published",
  "/dashboard/billing",
  "/dashboard/team",
  "/invite/{slug}",
];

export const PAGE_IDS = [
  "%00",
  "a%00",
  "%zz",
  "%E0%A4%A",
  "%ED%A0%80",
  "..",
  "%2e%2e",
  "x".repeat(3000),
  "__proto__",
  encodeURIComponent("😀"),
  "-1",
];

/** Query strings, raw (percent-encoded as sent or not), for every page. */
export function pageQueries(r: Rng): string[] {
  const names = [
    "q",
    "cursor",
    "callbackUrl",
    "error",
    "code",
    "client_id",
    "redirect_uri",
    "response_type",
    "scope",
    "state",
    "user_code",
    "page",
  ];
  const values = [
    "%00",
    "%zz",
    "%ED%A0%80",
    "",
    encodeURIComponent("😀".repeat(300)),
    enc(hostileString(r)),
    "x".repeat(4000),
    "//evil.example",
    "javascript:alert(1)",
  ];
  const out = [
    `${r.pick(names)}=1&${r.pick(names)}=${r.pick(values)}`,
    `${"k".repeat(300)}=v`,
    "__proto__[x]=1",
    "q[]=1&q[]=2",
  ];
  for (const value of values) out.push(`${r.pick(names)}=${value}`);
  return out;
}

export const PAGE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Bodies for Server Action posts: what a browser's action call or form sends, and junk. */
export function actionBodies(
  r: Rng,
  actionId: string | null,
): { label: string; headers: Record<string, string>; body: string }[] {
  const ids = [actionId ?? "0".repeat(42), "x", "", "f".repeat(3000), "%00", "7f" + "0".repeat(40)];
  const out: { label: string; headers: Record<string, string>; body: string }[] = [];
  for (const id of ids) {
    out.push({
      label: `next-action ${id.slice(0, 12)}`,
      headers: { "next-action": id, "content-type": "text/plain;charset=UTF-8" },
      body: r.pick(["[]", "[1,2", nested(500), JSON.stringify([hostileString(r)]), ""]),
    });
  }
  const boundary = "----fuzz";
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const forms: [string, string][] = [
    ["provider", "\u0000"],
    ["provider", "nope"],
    ["email", hostileString(r)],
    ["email", "a@b.c"],
    ["callbackUrl", "//evil.example"],
    ["1_$ACTION_REF_1", "x"],
  ];
  for (const [name, value] of forms) {
    const fields = (actionId ? field(`$ACTION_ID_${actionId}`, "") : "") + field(name, value);
    out.push({
      label: `form ${name}`,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body: `${fields}--${boundary}--\r\n`,
    });
  }
  out.push({
    label: "form broken",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body: `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\n`,
  });
  out.push({
    label: "urlencoded",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `$ACTION_ID_${actionId ?? "x"}=&email=%00&provider=%zz`,
  });
  return out;
}

/** JSON-RPC messages for /mcp that do not depend on the tool list: broken envelopes, batches, unknown methods. */
export function rpcMessages(r: Rng): { label: string; body: string }[] {
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz", version: "0" } },
  };
  const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
  const messages: [string, Json | string][] = [
    ["initialize", init],
    ["tools/list", list],
    ["unknown method", { jsonrpc: "2.0", id: 3, method: "nope/nope" }],
    ["jsonrpc 1.0", { jsonrpc: "1.0", id: 4, method: "tools/list" }],
    ["no method", { jsonrpc: "2.0", id: 5 }],
    ["id object", { jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" }],
    ["id huge", { jsonrpc: "2.0", id: "9".repeat(5000), method: "tools/list" }],
    ["params string", { jsonrpc: "2.0", id: 6, method: "tools/call", params: "x" }],
    ["params null", { jsonrpc: "2.0", id: 7, method: "tools/call", params: null }],
    ["call no name", { jsonrpc: "2.0", id: 8, method: "tools/call", params: { arguments: {} } }],
    ["call unknown tool", { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "nope", arguments: {} } }],
    [
      "call tool name NUL",
      { jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "get_job\u0000", arguments: {} } },
    ],
    ["notification", { jsonrpc: "2.0", method: "notifications/initialized" }],
    ["result", { jsonrpc: "2.0", id: 11, result: {} }],
    ["error", { jsonrpc: "2.0", id: 12, error: { code: 1, message: "x" } }],
    ["empty batch", []],
    ["batch of numbers", [1, 2, 3]],
    ["batch", [init, list, { jsonrpc: "2.0", id: 13, method: "nope" }]],
    [
      "batch of notifications",
      Array.from({ length: 50 }, () => ({ jsonrpc: "2.0", method: "notifications/initialized" })),
    ],
    ["nested", nested(3000)],
    ["string", '"x"'],
    ["truncated", '{"jsonrpc": "2.0", "id": 1, "method": "tools/li'],
    ["NUL in method", { jsonrpc: "2.0", id: 14, method: "tools/list\u0000" }],
    ["lone surrogate", '{"jsonrpc": "2.0", "id": 15, "method": "\\ud800"}'],
    ["hostile", { jsonrpc: "2.0", id: 16, method: hostileString(r) }],
  ];
  return messages.map(([label, value]) => ({ label, body: typeof value === "string" ? value : JSON.stringify(value) }));
}

/** Junk arguments for a tool, from its listed input schema and from nothing at all. */
export function junkArguments(schema: { properties?: Record<string, unknown> }, r: Rng): Json[] {
  const names = Object.keys(schema.properties ?? {});
  const out: Json[] = [{}, [], "x", 1, null, { zzz: 1 }];
  for (const name of names) {
    for (const value of [
      "\u0000",
      "a\u0000b",
      "\ud800",
      "",
      "x".repeat(5000),
      123,
      true,
      [],
      { a: 1 },
      null,
      hostileString(r),
      "https://example.com/\u0000",
      "-1",
    ] as Json[]) {
      out.push({ [name]: value });
    }
  }
  return out;
}

/** Request lines only a raw socket sends as they are: the asterisk-form, absolute- and authority-form, oddities. */
export function rawTargets(host: string): { label: string; request: string }[] {
  const close = `Host: ${host}\r\nConnection: close\r\n`;
  return [
    { label: "OPTIONS *", request: `OPTIONS * HTTP/1.1\r\n${close}\r\n` },
    { label: "GET *", request: `GET * HTTP/1.1\r\n${close}\r\n` },
    { label: "POST *", request: `POST * HTTP/1.1\r\n${close}Content-Length: 2\r\n\r\n{}` },
    { label: "HEAD *", request: `HEAD * HTTP/1.1\r\n${close}\r\n` },
    { label: "absolute-form own", request: `GET http://${host}/explore HTTP/1.1\r\n${close}\r\n` },
    { label: "absolute-form other", request: `GET http://evil.example/ HTTP/1.1\r\n${close}\r\n` },
    { label: "absolute-form *", request: `OPTIONS http://${host}* HTTP/1.1\r\n${close}\r\n` },
    { label: "authority-form GET", request: `GET ${host} HTTP/1.1\r\n${close}\r\n` },
    { label: "CONNECT", request: `CONNECT ${host} HTTP/1.1\r\n${close}\r\n` },
    { label: "//", request: `GET //evil.example/x HTTP/1.1\r\n${close}\r\n` },
    { label: "?", request: `GET ?q=1 HTTP/1.1\r\n${close}\r\n` },
    { label: "/ NUL query", request: `GET /explore?q=%00 HTTP/1.1\r\n${close}\r\n` },
    { label: "dot segments", request: `GET /../../etc/passwd HTTP/1.1\r\n${close}\r\n` },
    { label: "HTTP/1.0 no Host", request: `GET /explore HTTP/1.0\r\nConnection: close\r\n\r\n` },
    { label: "HTTP/1.1 no Host", request: `GET /explore HTTP/1.1\r\nConnection: close\r\n\r\n` },
    { label: "two Hosts", request: `GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n` },
    { label: "HTTP/2.0 line", request: `GET / HTTP/2.0\r\n${close}\r\n` },
    { label: "tab in target", request: `GET /ex\tplore HTTP/1.1\r\n${close}\r\n` },
    { label: "raw UTF-8 target", request: `GET /t/é😀 HTTP/1.1\r\n${close}\r\n` },
    { label: "raw NUL target", request: `GET /t/a\u0000b HTTP/1.1\r\n${close}\r\n` },
  ];
}

/** Sends `request` on a fresh connection; the status of the answer, or 0 when the server closed without one. */
export function sendRaw(host: string, port: number, request: string): Promise<{ status: number; head: string }> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let data = "";
    const done = () => {
      socket.destroy();
      const line = data.split("\r\n")[0] ?? "";
      resolve({ status: Number(/^HTTP\/\d\.\d (\d{3})/.exec(line)?.[1] ?? 0), head: data.slice(0, 400) });
    };
    socket.setTimeout(10_000, done);
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      if (data.length > 64 * 1024) done();
    });
    socket.on("error", done);
    socket.on("close", done);
    socket.write(Buffer.from(request, "utf8"));
  });
}
