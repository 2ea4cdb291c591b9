import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";
import { withApi } from "@/lib/http/with-api";
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
      detail: [{ type: "greater_than_equal", loc: ["query", "limit"], msg: "Input should be greater than or equal to 1", input: "0", ctx: { ge: 1 } }],
    });
  });

  it("limit=101, a non-integer, a negative offset and a bad enum, all at once", async () => {
    const res = await callRoute(list, "/v1/test/list?limit=101&offset=-1&order=up");
    expect(res.json).toEqual({
      detail: [
        { type: "less_than_equal", loc: ["query", "limit"], msg: "Input should be less than or equal to 100", input: "101", ctx: { le: 100 } },
        { type: "greater_than_equal", loc: ["query", "offset"], msg: "Input should be greater than or equal to 0", input: "-1", ctx: { ge: 0 } },
        { type: "enum", loc: ["query", "order"], msg: "Input should be 'asc' or 'desc'", input: "up", ctx: { expected: "'asc' or 'desc'" } },
      ],
    });
    const text = await callRoute(list, "/v1/test/list?limit=ten");
    expect(text.json).toEqual({
      detail: [{ type: "int_parsing", loc: ["query", "limit"], msg: "Input should be a valid integer, unable to parse string as an integer", input: "ten" }],
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
    const [item] = (res.json as { detail: { type: string; loc: unknown[]; msg: string; ctx: { error: string } }[] }).detail;
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
      detail: [{ type: "string_too_long", loc: ["body", "url"], msg: "String should have at most 2048 characters", input: url, ctx: { max_length: 2048 } }],
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
      detail: [{ type: "model_attributes_type", loc: ["body"], msg: "Input should be a valid dictionary or object to extract fields from", input: [1, 2] }],
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
