import http from "node:http";
import { afterEach, beforeEach, expect, inject, test } from "vitest";
import { randomEmail } from "../emails";
import { recordSecrets } from "../secrets";
import {
  checkAnswer,
  leavesApi,
  enc,
  generate,
  hostileString,
  mutateBody,
  nested,
  operations,
  rng,
  type FuzzRequest,
  type Json,
  type Operation,
  type Rng,
} from "./fuzz";
import {
  PAGE_IDS,
  PAGE_METHODS,
  PAGES,
  actionBodies,
  junkArguments,
  pageQueries,
  rawTargets,
  rpcMessages,
  sendRaw,
} from "./fuzz-surfaces";
import { anonymous, signIn, type APIRequestContext } from "./http";

// No input gives a 500. Every operation of the built app's /openapi.json is sent
// random, boundary and hostile path ids, queries, bodies and headers (with the API key, without it,
// with a forged one); every answer must be in the contract's shapes (HTTPValidationError for 422,
// {detail, code} for other errors), and a 5xx only where the operation documents it (503 when a
// feature is not configured here). The seed is printed; FUZZ_SEED replays a run. The fuzz test runs
// last in this file, after the fixed cases, because it uses up /v1/languages' per-address limit.
//
// The hostile path segments, bodies and headers are the same for every operation, and what refuses them is shared
// (the request guard, withApi's parsing): each operation gets a seeded sample of them, so that a run sends every one to
// about a third of the operations (and another third the next run) rather than all of them to all. FUZZ_FULL=1 sends
// every one to every operation.

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const FULL = process.env.FUZZ_FULL === "1";
const PATH_IDS_PER_OPERATION = 7;
const HEADER_CASES_PER_OPERATION = 5;
// The hostile bodies (malformed, deep, a megabyte) are refused by the same parsing (withApi's) for every operation
// that takes one; each operation's own schema gets its edge and mutated bodies in full.
const BODY_CASES_PER_OPERATION = 6;
// Likewise each page target (a page with one of the hostile ids) gets a seeded sample of the hostile queries and
// methods: the pages share what refuses them (the proxy, Next's own parsing), and each page is rendered anyway.
const PAGE_QUERIES_PER_TARGET = 4;
const PAGE_METHODS_PER_TARGET = 3;

// Its own app (test/server/global-setup.ts): the rate limits this file runs into stay out of the other files' way.
const baseURL = inject("fuzzOrigin");
// Each test's contexts, as e2e's fixtures were: `request` without a session, `signedIn` (e2e's `page.request`
// after devLogin) once the test has signed in.
let request: APIRequestContext;
let signedIn: APIRequestContext | undefined;
beforeEach(async () => {
  request = await anonymous(baseURL);
  signedIn = undefined;
});
afterEach(async () => {
  await request.dispose();
  await signedIn?.dispose();
});

// Raw path segments, already percent-encoded as a client would send them (or would not).
const PATH_IDS = [
  "a%00",
  "%00",
  "%zz",
  "%E0%A4%A",
  "%ED%A0%80",
  "%C0%AF",
  "..",
  "%2e%2e",
  "%2F",
  "%20",
  encodeURIComponent("😀"),
  encodeURIComponent("\u202eevil"),
  "x".repeat(3000),
  "constructor",
  "__proto__",
  "-1",
  "0",
  encodeURIComponent("' OR 1=1 --"),
  "9".repeat(40),
  "00000000-0000-0000-0000-000000000000",
];

const HEADER_CASES: Record<string, string>[] = [
  { "content-type": "text/plain" },
  { "content-type": "application/json; charset=utf-16" },
  { "content-type": "multipart/form-data; boundary=x" },
  { accept: "text/html" },
  { "x-forwarded-for": "1.2.3.4, not-an-address, ::1" },
  { "x-forwarded-host": "evil.example" },
  { origin: "https://evil.example" },
  { authorization: `Bearer ${"x".repeat(8000)}` },
  { authorization: "Basic Zm9vOmJhcg==" },
  { authorization: `Bearer vbt_${"1".repeat(44)}` },
  { authorization: "Bearer" },
  { cookie: "authjs.session-token=garbage; __Secure-authjs.session-token=%00" },
  { range: "bytes=0-1" },
  { "if-none-match": "*" },
  { "content-encoding": "gzip" },
  { "accept-encoding": "br;q=2, *;q=-1" },
];

interface Stats {
  sent: number;
  byStatus: Record<number, number>;
}

function casesFor(op: Operation, r: Rng): FuzzRequest[] {
  const pathParams = op.params.filter((p) => p.in === "path");
  const queryParams = op.params.filter((p) => p.in === "query");
  const validPath = () =>
    pathParams.reduce((path, p) => path.replace(`{${p.name}}`, enc(String(generate(p.schema, r)))), op.path);
  const validQuery = () =>
    queryParams
      .filter((p) => p.required || r.chance(0.5))
      .map((p) => `${p.name}=${enc(String(generate(p.schema, r)))}`)
      .join("&");
  const validBody = () => (op.body ? JSON.stringify(generate(op.body, r)) : undefined);
  const base = (label: string): FuzzRequest => ({
    label,
    path: validPath(),
    query: validQuery(),
    headers: op.body ? { "content-type": "application/json" } : {},
    body: validBody(),
    auth: r.chance(0.8) ? "key" : r.pick(["none", "garbage"] as const),
  });
  const cases: FuzzRequest[] = [];

  for (let i = 0; i < 6; i++) cases.push(base("valid-looking"));
  const pathIds = FULL ? PATH_IDS : r.sample(PATH_IDS, PATH_IDS_PER_OPERATION);
  for (const id of pathParams.length ? pathIds : []) {
    const c = base(`path ${id.slice(0, 20)}`);
    c.path = op.path.replace(`{${pathParams[0].name}}`, id);
    for (const other of pathParams.slice(1)) c.path = c.path.replace(`{${other.name}}`, "x");
    cases.push(c);
  }
  for (const p of queryParams) {
    const raw = [
      ...Array.from({ length: 4 }, () => enc(String(generate(p.schema, r, true)))),
      "%00",
      "%zz",
      "",
      enc("😀".repeat(300)),
      enc(hostileString(r)),
    ];
    for (const value of raw) {
      const c = base(`query ${p.name}=${value.slice(0, 20)}`);
      c.query = [c.query, `${p.name}=${value}`].filter(Boolean).join("&");
      cases.push(c);
    }
    const repeated = base(`query ${p.name} twice`);
    repeated.query = `${p.name}=1&${p.name}=${enc(hostileString(r))}`;
    cases.push(repeated);
  }
  const unknown = base("unknown query");
  unknown.query = `zzz=%00&__proto__[x]=1&${"k".repeat(500)}=v`;
  cases.push(unknown);

  const bodies: { label: string; body: string | Buffer }[] = [
    { label: "empty", body: "" },
    { label: "truncated", body: '{"url": "https://www.youtube.com/watch?v=' },
    { label: "not json", body: "nul" },
    { label: "array", body: "[]" },
    { label: "string", body: '"x"' },
    { label: "nested 64", body: nested(64) },
    { label: "nested 100", body: nested(100) },
    { label: "nested 4,100", body: nested(4100) },
    { label: "object nested 5,000", body: `{"url": ${nested(5000)}}` },
    { label: "NUL escape", body: '{"url": "\\u0000", "lang": "en\\u0000"}' },
    { label: "lone surrogate", body: '{"url": "\\ud800", "format": "\\udfff"}' },
    {
      label: "invalid UTF-8",
      body: Buffer.from([0x7b, 0x22, 0x75, 0x72, 0x6c, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    },
    { label: "BOM", body: `\ufeff${validBody() ?? "{}"}` },
    { label: "duplicate keys", body: '{"url": 1, "url": "https://example.com/a.mp3"}' },
    { label: "1,000 wrong items", body: JSON.stringify(Array.from({ length: 1000 }, (_, i) => i)) },
    { label: "1.1 MiB", body: JSON.stringify({ url: "x".repeat(1_150_000) }) },
    {
      label: "1 MB of failing fields",
      body: JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, "v".repeat(40)]))),
    },
  ];
  const hostileBodies =
    op.method === "GET" ? bodies.slice(0, 3) : FULL ? bodies : r.sample(bodies, BODY_CASES_PER_OPERATION);
  for (const { label, body } of hostileBodies) {
    const c = base(`body ${label}`);
    c.body = body;
    c.headers = { "content-type": "application/json" };
    cases.push(c);
  }
  if (op.body) {
    for (let i = 0; i < 6; i++) {
      const c = base("body edge");
      c.body = JSON.stringify(generate(op.body, r, true));
      cases.push(c);
    }
    for (let i = 0; i < 10; i++) {
      const c = base("body mutated");
      c.body = JSON.stringify(mutateBody(generate(op.body, r) as Json, op.body, r));
      cases.push(c);
    }
  }
  for (const headers of FULL ? HEADER_CASES : r.sample(HEADER_CASES, HEADER_CASES_PER_OPERATION)) {
    const c = base(`header ${Object.keys(headers)[0]}`);
    c.headers = { ...c.headers, ...headers };
    if (headers.authorization || headers.cookie) c.auth = "none";
    cases.push(c);
  }
  return cases;
}

async function send(api: APIRequestContext, op: Operation, c: FuzzRequest, key: string) {
  const headers: Record<string, string> = { ...c.headers };
  if (c.auth === "key") headers.authorization = `Bearer ${key}`;
  if (c.auth === "garbage") headers.authorization = `Bearer vbt_${"z".repeat(40)}`;
  const response = await api.fetch(`${c.path}${c.query ? `?${c.query}` : ""}`, {
    method: op.method,
    headers,
    data: c.body,
    maxRedirects: 0,
    failOnStatusCode: false,
    timeout: 20_000,
  });
  return {
    status: response.status(),
    contentType: response.headers()["content-type"] ?? "",
    text: await response.text(),
  };
}

test("the defects the first hardening review found answer in the contract's shapes", async () => {
  const problem = { detail: expect.any(String), code: expect.any(String) };
  const cases: { method: string; path: string; status: number; code?: string; body?: string }[] = [
    { method: "POST", path: "/v1/webhooks/assemblyai", status: 422, body: nested(4100) },
    { method: "GET", path: "/v1/languages?url=%00", status: 422 },
    { method: "GET", path: "/v1/me/transcriptions?q=%00", status: 401 }, // no credentials: refused before parsing
    { method: "GET", path: "/docs/assets/constructor", status: 404 },
    { method: "GET", path: "/docs/assets/__proto__", status: 404 },
    { method: "TRACE", path: "/v1/languages", status: 405, code: "method_not_allowed" },
    { method: "TRACE", path: "/", status: 405, code: "method_not_allowed" },
    { method: "PROPFIND", path: "/v1/transcript", status: 405, code: "method_not_allowed" },
    { method: "GET", path: "/v1/jobs/%E0%A4%A", status: 400, code: "invalid_path" },
    { method: "GET", path: "/docs/assets/%zz", status: 400, code: "invalid_path" },
    { method: "GET", path: "/v1/nope", status: 404, code: "not_found" },
    { method: "GET", path: "/v1", status: 404, code: "not_found" },
    { method: "POST", path: "/v1/jobs/x/y", status: 404, code: "not_found" },
    { method: "DELETE", path: "/v1/languages", status: 405, code: "method_not_allowed" },
    { method: "GET", path: "/v1/transcript", status: 405, code: "method_not_allowed" },
    { method: "PUT", path: "/v1/jobs/abc", status: 405, code: "method_not_allowed" },
  ];
  for (const c of cases) {
    const response = await request.fetch(c.path, {
      method: c.method,
      data: c.body,
      headers: c.body ? { "content-type": "application/json" } : {},
      failOnStatusCode: false,
      maxRedirects: 0,
    });
    const label = `${c.method} ${c.path}`;
    expect(response.status(), label).toBe(c.status);
    expect(response.headers()["content-type"], label).toContain("application/json");
    const body = await response.json();
    if (c.status === 422)
      expect(body.detail[0], label).toMatchObject({
        type: expect.any(String),
        loc: expect.any(Array),
        msg: expect.any(String),
      });
    else expect(body, label).toEqual(c.code ? { ...problem, code: c.code } : problem);
  }
  const wrongMethod = await request.fetch("/v1/languages", { method: "DELETE", failOnStatusCode: false });
  expect(wrongMethod.headers().allow).toBe("GET, HEAD, OPTIONS");
});

test("the defects the second hardening review found answer in the contract's shapes", async () => {
  const cases: {
    method: string;
    path: string;
    status: number;
    code: string;
    headers?: Record<string, string>;
    body?: string;
  }[] = [
    { method: "GET", path: "/explore?q=%00", status: 400, code: "invalid_text" },
    { method: "GET", path: "/t/%00", status: 400, code: "invalid_text" },
    { method: "POST", path: "/metrics", status: 405, code: "method_not_allowed" },
    {
      method: "POST",
      path: "/signin",
      status: 403,
      code: "forbidden",
      headers: {
        origin: "https://evil.example",
        "next-action": "0".repeat(42),
        "content-type": "text/plain;charset=UTF-8",
      },
      body: "[]",
    },
  ];
  for (const c of cases) {
    const response = await request.fetch(c.path, {
      method: c.method,
      headers: c.headers,
      data: c.body,
      failOnStatusCode: false,
      maxRedirects: 0,
    });
    const label = `${c.method} ${c.path}`;
    expect(response.status(), label).toBe(c.status);
    expect(response.headers()["content-type"], label).toContain("application/json");
    expect(await response.json(), label).toEqual({ detail: expect.any(String), code: c.code });
  }
});

test("signed in: NUL in a path id or q is a 422 and never reaches PostgreSQL", async () => {
  signedIn = await signIn(baseURL, randomEmail("nul"));
  const api = signedIn;
  for (const path of [
    "/v1/jobs/a%00",
    "/v1/transcripts/%00",
    "/v1/transcripts/%00/download",
    "/v1/me/transcriptions?q=%00",
  ]) {
    const response = await api.get(path, { headers: { origin: baseURL }, failOnStatusCode: false });
    expect(response.status(), path).toBe(422);
    const [item] = (await response.json()).detail;
    expect(item, path).toMatchObject({
      type: "value_error",
      msg: "Value error, String should not contain NUL (\\u0000) characters",
    });
  }
});

test("signed in: a workspace cookie that cannot name a workspace is ignored, by /v1, /dashboard and PUT /v1/me/workspace", async () => {
  // Another app on localhost or a sibling subdomain can set it. Sent by hand beside the session cookie, raw.
  signedIn = await signIn(baseURL, randomEmail("cookie"));
  const session = (await signedIn.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const failures: string[] = [];
  for (const value of ["%00", "a%00", "%zz", "%E0%A4%A", "%ED%A0%80", enc("😀"), enc("\u202eevil"), "x".repeat(3000)]) {
    const headers = { cookie: `${session}; verbatim-workspace=${value}`, origin: baseURL };
    for (const [method, path, data] of [
      ["GET", "/v1/me", undefined],
      ["GET", "/v1/me/transcriptions", undefined],
      ["GET", "/v1/me/subscription", undefined],
      ["GET", "/v1/me/search?q=word", undefined],
      ["PUT", "/v1/me/workspace", JSON.stringify({ workspace_id: null })],
      ["GET", "/dashboard", undefined],
      ["GET", "/dashboard/team", undefined],
    ] as const) {
      const response = await request.fetch(path, {
        method,
        headers: data ? { ...headers, "content-type": "application/json" } : headers,
        data,
        failOnStatusCode: false,
        maxRedirects: 0,
      });
      if (response.status() !== 200)
        failures.push(`${method} ${path} with ${value.slice(0, 20)} → ${response.status()}`);
    }
  }
  expect(failures).toEqual([]);
});

test("a chunked body with no Content-Length is cut off at 1 MiB while it streams", async () => {
  // An operation that reads its body without credentials (the webhook checks its header afterwards).
  const url = new URL("/v1/webhooks/assemblyai", baseURL);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const outcome = await new Promise<{ status: number; body: string; written: number }>((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      },
      (res) => {
        answered = true;
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body, written }));
      },
    );
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      // Keep sending (up to 64 MiB) until the server answers.
      while (!answered && written < 64 * 1024 * 1024) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
  expect(outcome.status).toBe(413);
  expect(JSON.parse(outcome.body)).toEqual({
    detail: "The JSON body is larger than 1 MiB.",
    code: "payload_too_large",
  });
  // The answer came long before the client's 64 MiB were sent.
  expect(outcome.written).toBeLessThan(16 * 1024 * 1024);
});

test("every operation of /openapi.json answers random, boundary and hostile input in the contract's shapes", async () => {
  const started = Date.now();
  signedIn = await signIn(baseURL, randomEmail("fuzz"));
  const ensured = await signedIn.post("/v1/me/api-key/ensure", { headers: { origin: baseURL } });
  expect(ensured.status()).toBe(200);
  let key = ((await ensured.json()) as { key: string }).key;
  recordSecrets(key);
  expect(key).toMatch(/^vbt_/);

  const document = await (await request.get("/openapi.json")).json();
  const ops = operations(document);
  expect(ops.length).toBeGreaterThan(15);

  const r = rng(SEED);
  const stats = new Map<string, Stats>();
  const failures: string[] = [];
  for (const op of ops) {
    const name = `${op.method} ${op.path}`;
    const opStats: Stats = { sent: 0, byStatus: {} };
    stats.set(name, opStats);
    for (const c of casesFor(op, r)) {
      const answer = await send(request, op, c, key);
      opStats.sent++;
      opStats.byStatus[answer.status] = (opStats.byStatus[answer.status] ?? 0) + 1;
      // A dot segment can take a path out of the API (`/s/../feed.xml` is the page path `/feed.xml`): a page
      // answers it, in a page's shape; only a server error fails there.
      const leftApi = leavesApi(op.path, c.path);
      const check = leftApi
        ? answer.status >= 500
          ? { ok: false, why: `${answer.status} outside the API` }
          : { ok: true }
        : checkAnswer(op, answer.status, answer.contentType, answer.text);
      if (!check.ok)
        failures.push(
          `${name} [${c.label}] ${c.path.slice(0, 80)}?${c.query.slice(0, 80)} → ${check.why}: ${answer.text.slice(0, 200)}`,
        );
      // The regenerate operation replaces the key; keep fuzzing with the new one.
      if (answer.status === 200 && answer.contentType.includes("json")) {
        const fresh = (JSON.parse(answer.text) as { key?: unknown }).key;
        if (typeof fresh === "string" && fresh.startsWith("vbt_")) {
          key = fresh;
          recordSecrets(key);
        }
      }
    }
  }

  const total = [...stats.values()].reduce((sum, s) => sum + s.sent, 0);
  const fiveHundreds = [...stats.values()].reduce(
    (sum, s) =>
      sum +
      Object.entries(s.byStatus)
        .filter(([code]) => code === "500")
        .reduce((n, [, k]) => n + k, 0),
    0,
  );
  const lines = [...stats].map(
    ([name, s]) =>
      `${name.padEnd(44)} ${String(s.sent).padStart(4)}  ${Object.entries(s.byStatus)
        .map(([code, n]) => `${code}×${n}`)
        .join(" ")}`,
  );
  const summary = `fuzz seed ${SEED}: ${total} requests over ${ops.length} operations in ${((Date.now() - started) / 1000).toFixed(1)} s, ${fiveHundreds} × 500\n${lines.join("\n")}`;
  console.log(summary);
  expect(failures, summary).toEqual([]);
}, 300_000);

test("pages, Server Actions, /mcp (JSON-RPC, batches, every tool with junk arguments) and raw request targets: never a 5xx", async () => {
  // The surfaces outside /openapi.json. Pages answer HTML, so only the status is checked;
  // MCP tool results must not be the "Something went wrong" answer (the tool-level 500).
  const r = rng(SEED + 21);
  const tally = new Map<string, Record<number, number>>();
  const failures: string[] = [];
  const note = (surface: string, label: string, status: number, text = "") => {
    const counts = tally.get(surface) ?? {};
    counts[status] = (counts[status] ?? 0) + 1;
    tally.set(surface, counts);
    if (status >= 500 || status === 0) failures.push(`${surface} ${label} → ${status}: ${text.slice(0, 200)}`);
  };

  signedIn = await signIn(baseURL, randomEmail("fuzz-surfaces"));
  const ensured = await signedIn.post("/v1/me/api-key/ensure", { headers: { origin: baseURL } });
  const { key } = (await ensured.json()) as { key: string };
  recordSecrets(key);

  // Pages: hostile ids and queries, every method, anonymous and signed in.
  for (const path of PAGES) {
    const targets = path.includes("{slug}") ? PAGE_IDS.map((id) => path.replace("{slug}", id)) : [path];
    for (const target of targets) {
      const queries = pageQueries(r);
      for (const query of ["", ...(FULL ? queries : r.sample(queries, PAGE_QUERIES_PER_TARGET))]) {
        const api = path.startsWith("/dashboard") && r.chance(0.5) ? signedIn : request;
        const method = query ? r.pick(["GET", "GET", "HEAD", "POST"]) : "GET";
        const response = await api.fetch(`${target}${query ? `?${query}` : ""}`, {
          method,
          failOnStatusCode: false,
          maxRedirects: 0,
          timeout: 20_000,
        });
        note(
          "pages",
          `${method} ${target.slice(0, 40)}?${query.slice(0, 40)}`,
          response.status(),
          await response.text(),
        );
      }
      for (const method of FULL ? PAGE_METHODS : r.sample(PAGE_METHODS, PAGE_METHODS_PER_TARGET)) {
        const response = await request.fetch(target, {
          method,
          data: method === "GET" || method === "HEAD" ? undefined : "{}",
          failOnStatusCode: false,
          maxRedirects: 0,
        });
        note("pages", `${method} ${target.slice(0, 40)}`, response.status(), await response.text());
      }
    }
  }

  // Server Actions: the real action ids the sign-in and dashboard pages carry, made-up ones, junk bodies,
  // other origins.
  const idsIn = (html: string) => [...new Set([...html.matchAll(/\$ACTION_ID_([0-9a-f]{20,})/g)].map((m) => m[1]!))];
  const signinIds = idsIn(await (await request.get("/signin")).text());
  const dashboardIds = idsIn(await (await signedIn.get("/dashboard/keys")).text());
  expect(signinIds.length).toBeGreaterThan(0);
  for (const [path, api, ids] of [
    ["/signin", request, signinIds],
    ["/dashboard/keys", signedIn, dashboardIds],
    ["/", request, [] as string[]],
  ] as const) {
    for (const id of [...ids, null]) {
      for (const c of actionBodies(r, id)) {
        for (const origin of [baseURL, "https://evil.example", "null", undefined]) {
          const headers = { ...c.headers, ...(origin ? { origin } : {}) };
          const response = await api.fetch(path, {
            method: "POST",
            headers,
            data: c.body,
            failOnStatusCode: false,
            maxRedirects: 0,
          });
          note(
            "server actions",
            `${path} [${c.label}] origin ${origin ?? "none"}`,
            response.status(),
            await response.text(),
          );
        }
      }
    }
  }

  // /mcp: JSON-RPC envelopes and batches, then every listed tool with junk arguments.
  const mcp = async (label: string, body: string, auth = true) => {
    const response = await request.fetch("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(auth ? { authorization: `Bearer ${key}` } : {}),
      },
      data: body,
      failOnStatusCode: false,
    });
    const text = await response.text();
    note("mcp", label, response.status(), text);
    if (text.includes("Something went wrong on our side"))
      failures.push(`mcp ${label} → a tool failed on our side: ${text.slice(0, 300)}`);
    return text;
  };
  for (const { label, body } of rpcMessages(r)) {
    await mcp(label, body);
    if (r.chance(0.2)) await mcp(`${label} (no credential)`, body, false);
  }
  const listed = JSON.parse(
    await mcp("tools/list", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })),
  ) as {
    result: { tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[] };
  };
  expect(listed.result.tools.length).toBeGreaterThan(5);
  let id = 100;
  for (const tool of listed.result.tools) {
    const junk = junkArguments(tool.inputSchema, r);
    for (const args of junk)
      await mcp(
        `${tool.name} ${JSON.stringify(args).slice(0, 40)}`,
        JSON.stringify({
          jsonrpc: "2.0",
          id: id++,
          method: "tools/call",
          params: { name: tool.name, arguments: args },
        }),
      );
    const batch = junk.slice(0, 5).map((args) => ({
      jsonrpc: "2.0",
      id: id++,
      method: "tools/call",
      params: { name: tool.name, arguments: args },
    }));
    await mcp(`${tool.name} batch`, JSON.stringify(batch));
  }

  // Request targets a client library will not send: a raw socket.
  const { hostname, port, host } = new URL(baseURL);
  for (const { label, request: raw } of rawTargets(host)) {
    const answer = await sendRaw(hostname, Number(port), raw);
    // 0: the server closed the connection without an answer (Node does so for CONNECT with no handler).
    if (answer.status === 0 && label === "CONNECT")
      tally.set("request targets", {
        ...tally.get("request targets"),
        0: (tally.get("request targets")?.[0] ?? 0) + 1,
      });
    else note("request targets", label, answer.status, answer.head);
  }
  const star = await sendRaw(
    hostname,
    Number(port),
    `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
  );
  expect(star.status).toBe(400);
  expect(star.head).toContain('"code":"invalid_path"');

  const lines = [...tally].map(([surface, counts]) => {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return `${surface.padEnd(18)} ${String(total).padStart(5)}  ${Object.entries(counts)
      .map(([code, n]) => `${code}×${n}`)
      .join(" ")}`;
  });
  const total = [...tally.values()].flatMap((c) => Object.values(c)).reduce((a, b) => a + b, 0);
  const summary = `fuzz seed ${SEED}: ${total} requests beyond the REST operations\n${lines.join("\n")}`;
  console.log(summary);
  expect(failures, summary).toEqual([]);
}, 180_000);
