import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";
import { withApi } from "@/lib/rest/with-api";
import { errors } from "@/lib/http/errors";
import { queryInt } from "@/lib/http/query";
import { callRoute } from "@/test/request";

// The wrapper on endpoints shaped like the contract's (history query, transcript body).

const listEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/test/list",
  tag: "test",
  summary: "list",
  auth: "none",
  query: z.object({
    limit: queryInt(z.int().min(1).max(100)).default(20),
    offset: queryInt(z.int().min(0)).default(0),
    order: z.enum(["asc", "desc"]).default("desc"),
    url: z.string().optional(),
  }),
});
const list = withApi(listEndpoint, async ({ query }) => query);

const bodyEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/test/body",
  tag: "test",
  summary: "body",
  auth: "none",
  body: z.object({ url: z.string().max(2048).default(""), tier: z.string(), lang: z.string().default("en") }),
});
const create = withApi(bodyEndpoint, async ({ body }) => body);

describe("withApi validation errors are FastAPI's exactly", () => {
  it("limit=0", async () => {
    const res = await callRoute(list, "/v1/test/list?limit=0");
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: [
        {
          type: "greater_than_equal",
          loc: ["query", "limit"],
          msg: "Input should be greater than or equal to 1",
          input: "0",
          ctx: { ge: 1 },
        },
      ],
    });
  });

  it("limit=101, a non-integer, a negative offset and a bad enum, all at once", async () => {
    const res = await callRoute(list, "/v1/test/list?limit=101&offset=-1&order=up");
    expect(res.json).toEqual({
      detail: [
        {
          type: "less_than_equal",
          loc: ["query", "limit"],
          msg: "Input should be less than or equal to 100",
          input: "101",
          ctx: { le: 100 },
        },
        {
          type: "greater_than_equal",
          loc: ["query", "offset"],
          msg: "Input should be greater than or equal to 0",
          input: "-1",
          ctx: { ge: 0 },
        },
        {
          type: "enum",
          loc: ["query", "order"],
          msg: "Input should be 'asc' or 'desc'",
          input: "up",
          ctx: { expected: "'asc' or 'desc'" },
        },
      ],
    });
    const text = await callRoute(list, "/v1/test/list?limit=ten");
    expect(text.json).toEqual({
      detail: [
        {
          type: "int_parsing",
          loc: ["query", "limit"],
          msg: "Input should be a valid integer, unable to parse string as an integer",
          input: "ten",
        },
      ],
    });
    const fraction = await callRoute(list, "/v1/test/list?limit=1.5");
    expect((fraction.json as { detail: { type: string }[] }).detail[0].type).toBe("int_parsing");
  });

  it("applies defaults and coerces valid query values", async () => {
    const res = await callRoute(list, "/v1/test/list?limit=5");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ limit: 5, offset: 0, order: "desc" });
  });

  it("a missing body field", async () => {
    const res = await callRoute(create, "/v1/test/body", { body: { url: "https://youtu.be/x" } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: [{ type: "missing", loc: ["body", "tier"], msg: "Field required", input: { url: "https://youtu.be/x" } }],
    });
  });

  it("no body at all", async () => {
    const res = await callRoute(create, "/v1/test/body", { method: "POST" });
    expect(res.json).toEqual({ detail: [{ type: "missing", loc: ["body"], msg: "Field required", input: null }] });
  });

  it("malformed JSON", async () => {
    const res = await callRoute(create, "/v1/test/body", { body: '{"tier": "pro",' });
    expect(res.status).toBe(422);
    const [item] = (res.json as { detail: { type: string; loc: unknown[]; msg: string; ctx: { error: string } }[] })
      .detail;
    expect(item.type).toBe("json_invalid");
    expect(item.loc[0]).toBe("body");
    expect(typeof item.loc[1]).toBe("number");
    expect(item.msg).toBe("JSON decode error");
    expect(item.ctx.error.length).toBeGreaterThan(0);
  });

  it("a string over 2048 characters", async () => {
    const url = `https://example.com/${"a".repeat(2100)}`;
    const res = await callRoute(create, "/v1/test/body", { body: { url, tier: "pro" } });
    expect(res.json).toEqual({
      detail: [
        {
          type: "string_too_long",
          loc: ["body", "url"],
          msg: "String should have at most 2048 characters",
          input: url,
          ctx: { max_length: 2048 },
        },
      ],
    });
  });

  it("wrong types and a non-object body", async () => {
    const res = await callRoute(create, "/v1/test/body", { body: { tier: 5, url: null } });
    expect(res.json).toEqual({
      detail: [
        { type: "string_type", loc: ["body", "url"], msg: "Input should be a valid string", input: null },
        { type: "string_type", loc: ["body", "tier"], msg: "Input should be a valid string", input: 5 },
      ],
    });
    const array = await callRoute(create, "/v1/test/body", { body: [1, 2] });
    expect(array.json).toEqual({
      detail: [
        {
          type: "model_attributes_type",
          loc: ["body"],
          msg: "Input should be a valid dictionary or object to extract fields from",
          input: [1, 2],
        },
      ],
    });
  });

  it("a body over 1 MiB is 413 in the error shape", async () => {
    const res = await callRoute(create, "/v1/test/body", { body: { tier: "x".repeat(1_100_000) } });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ code: "payload_too_large" });
  });
});

describe("withApi errors", () => {
  it("maps ApiError to {detail, code} with its headers", async () => {
    const handler = withApi(listEndpoint, async () => {
      throw errors.rateLimited(7);
    });
    const res = await callRoute(handler, "/v1/test/list");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.json).toEqual({ detail: "Too many requests. Try again in 7 s.", code: "rate_limited" });
  });

  it("answers an unexpected failure without a stack trace", async () => {
    const handler = withApi(listEndpoint, async () => {
      throw new Error("secret internal detail at db.ts:42");
    });
    const original = console.error;
    console.error = () => {};
    try {
      const res = await callRoute(handler, "/v1/test/list");
      expect(res.status).toBe(500);
      expect(res.text).not.toContain("secret internal detail");
      expect(res.json).toMatchObject({ code: "internal_error" });
    } finally {
      console.error = original;
    }
  });
});

describe("withApi against hostile input", () => {
  it("JSON nested 5,000 deep is a 422 json_invalid at the bracket that goes too deep, not a stack overflow", async () => {
    const deep = "[".repeat(5000) + "]".repeat(5000);
    const res = await callRoute(create, "/v1/test/body", { body: deep });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: [
        {
          type: "json_invalid",
          loc: ["body", 64],
          msg: "JSON decode error",
          input: {},
          ctx: { error: "Nesting deeper than 64 levels" },
        },
      ],
    });
    // Brackets inside strings do not count; 64 levels are fine.
    const ok = await callRoute(create, "/v1/test/body", {
      body: `{"tier": "${"[".repeat(5000)}", "x": ${"[".repeat(63)}${"]".repeat(63)}}`,
    });
    expect(ok.status).toBe(200);
  });

  it("an object of more than 1,000 members is a 422 json_invalid at the separator past the bound, before it is parsed", async () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}": 0`).join(", ");
    const body = `{"tier": "pro", ${members(1000)}}`;
    const res = await callRoute(create, "/v1/test/body", { body });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: [
        {
          type: "json_invalid",
          loc: ["body", body.lastIndexOf(",")],
          msg: "JSON decode error",
          input: {},
          ctx: { error: "More than 1000 members in one object" },
        },
      ],
    });
    // 1,000 members are fine; so are separators in strings and arrays, and many small objects.
    const fine = [
      `{"tier": "pro", ${members(999)}}`,
      `{"tier": "${",".repeat(5000)}", "x": [${"0,".repeat(100_000)}0]}`,
      `{"tier": "pro", "x": [${Array.from({ length: 2000 }, () => '{"a": 1, "b": [1, 2], "c": {"d": 1}}').join(",")}]}`,
    ];
    for (const ok of fine) expect((await callRoute(create, "/v1/test/body", { body: ok })).status).toBe(200);
  });

  it("a NUL or an unpaired surrogate in a body, query or path string is a 422 before any handler runs", async () => {
    let calls = 0;
    const endpoint = defineEndpoint({
      method: "POST",
      path: "/v1/test/{id}",
      tag: "test",
      summary: "all three",
      auth: "none",
      params: z.object({ id: z.string() }),
      query: z.object({ q: z.string().optional() }),
      body: z.record(z.string(), z.unknown()),
    });
    const handler = withApi(endpoint, async () => ++calls);
    const nul = {
      type: "value_error",
      msg: "Value error, String should not contain NUL (\\u0000) characters",
      ctx: { error: {} },
    };
    const path = await callRoute(handler, "/v1/test/a", { body: {}, params: { id: "a\u0000" } });
    expect(path.status).toBe(422);
    expect(path.json).toEqual({ detail: [{ ...nul, loc: ["path", "id"], input: "a\u0000" }] });
    const query = await callRoute(handler, "/v1/test/a?q=%00", { body: {}, params: { id: "a" } });
    expect(query.json).toEqual({ detail: [{ ...nul, loc: ["query", "q"], input: "\u0000" }] });
    const body = await callRoute(handler, "/v1/test/a", {
      body: '{"a": {"b": ["ok", "x\\u0000"]}, "k\\u0000": 1}',
      params: { id: "a" },
    });
    expect(body.json).toEqual({
      detail: [
        { ...nul, loc: ["body", "a", "b", 1], input: "x\u0000" },
        { ...nul, loc: ["body", "k\u0000"], input: "k\u0000" },
      ],
    });
    const surrogate = await callRoute(handler, "/v1/test/a", { body: '{"a": "\\ud800x"}', params: { id: "a" } });
    expect(surrogate.json).toMatchObject({
      detail: [{ type: "value_error", loc: ["body", "a"], msg: expect.stringContaining("unpaired surrogate") }],
    });
    const pair = await callRoute(handler, "/v1/test/a", { body: '{"a": "\\ud83d\\ude00"}', params: { id: "a" } });
    expect(pair.status).toBe(200);
    expect(calls).toBe(1);
  });

  it("bytes that are not UTF-8 are a 422 json_invalid", async () => {
    const request = new NextRequest("http://localhost:3000/v1/test/body", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    const res = await create(request, { params: Promise.resolve({}) });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      detail: [{ type: "json_invalid", loc: ["body", 6], ctx: { error: "Invalid UTF-8 in the body" } }],
    });
  });

  it("the echoed input is bounded: a ~1 MB body that fails validation does not come back as 2 MB", async () => {
    // As wide as an object may be (1,000 members), ~0.9 MB.
    const wide = Object.fromEntries(Array.from({ length: 999 }, (_, i) => [`k${i}`, "v".repeat(900)]));
    const res = await callRoute(create, "/v1/test/body", { body: { ...wide, tier: 5 } });
    expect(res.status).toBe(422);
    expect(res.text.length).toBeLessThan(40 * 1024);
    const [item] = (res.json as { detail: { loc: unknown[]; input: unknown }[] }).detail;
    expect(item.loc).toEqual(["body", "tier"]);
    const long = await callRoute(create, "/v1/test/body", { body: { tier: ["x".repeat(900_000)] } });
    expect(long.status).toBe(422);
    expect(long.text.length).toBeLessThan(40 * 1024);
    const echoed = (long.json as { detail: { input: string[] }[] }).detail[0].input[0];
    expect(echoed).toBe(`${"x".repeat(4096)}…`);
    // Many failing items: at most 50 come back.
    const many = await callRoute(
      withApi({ ...bodyEndpoint, body: z.array(z.string()) }, async () => null),
      "/v1/test/body",
      {
        body: Array.from({ length: 10_000 }, (_, i) => i),
      },
    );
    expect((many.json as { detail: unknown[] }).detail).toHaveLength(50);
    expect(many.text.length).toBeLessThan(40 * 1024);
  });

  it("a chunked body with no Content-Length is cut off at 1 MiB: 413, and the stream is not read to its end", async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new NextRequest("http://localhost:3000/v1/test/body", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: endless,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    expect(request.headers.get("content-length")).toBeNull();
    const res = await create(request, { params: Promise.resolve({}) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: "The JSON body is larger than 1 MiB.", code: "payload_too_large" });
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(1024 * 1024 + 3 * chunk.byteLength);
  });
});
