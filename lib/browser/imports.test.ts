import { describe, expect, it } from "vitest";
import { batchProgress, durationSeconds, feedCost, importCostText, isBatchActive } from "@/lib/browser/imports";

describe("import batches in the dashboard", () => {
  it("progress counts every finished item, and is 0 before listing", () => {
    expect(batchProgress({ total: 0, done: 0, failed: 0, skipped: 0 })).toBe(0);
    expect(batchProgress({ total: 8, done: 3, failed: 1, skipped: 2 })).toBe(75);
    expect(batchProgress({ total: 2, done: 2, failed: 1, skipped: 0 })).toBe(100);
  });

  it("only queued and running batches are polled", () => {
    expect(
      ["queued", "running", "done", "partial", "error"].filter((status) => isBatchActive({ status: status as never })),
    ).toEqual(["queued", "running"]);
  });
});

describe("feedCost", () => {
  it("adds the episodes' lengths and counts those without one", () => {
    expect(durationSeconds("01:02:03")).toBe(3723);
    expect(durationSeconds("12:30")).toBe(750);
    expect(durationSeconds(null)).toBeNull();
    expect(durationSeconds("soon")).toBeNull();
    expect(feedCost([{ duration: "00:30:00" }, { duration: null }, { duration: "1:00:00" }])).toEqual({
      seconds: 5400,
      unknown: 1,
    });
  });
});

describe("importCostText", () => {
  const own = { duration: "13:05:00", has_transcript: true };
  const bare = { duration: "00:30:00", has_transcript: false };

  it("a feed whose every episode has its own transcript: no recognition, and its length counts toward the allowance", () => {
    for (const asr of [true, false]) {
      const said = importCostText([own, own, own], 3, asr);
      expect(said).toMatchObject({ cost: true, seconds: 3 * 47_100 });
      expect(said.text).toBe(
        "Every episode publishes its own transcript: each is taken as it is, at once, without speech recognition. About 39 h 15 min of audio counts toward your allowance; episodes already in your history are free.",
      );
    }
  });

  it("counts every new episode's length, saying which ones recognition takes", () => {
    const said = importCostText([own, bare, { duration: null, has_transcript: false }], 3, true);
    expect(said).toMatchObject({ cost: true, seconds: 47_100 + 1800 });
    expect(said.text).toBe(
      "1 episode publishes its own transcript (taken at once). About 13 h 35 min of audio (1 without a stated length) in all counts toward your allowance, the 2 episodes without their own transcript through speech recognition; episodes already in your history are free.",
    );
    expect(importCostText([bare], 40, true).text).toMatch(/^About 30 min of audio in the newest 1 counts toward/);
  });

  it("on a server that cannot recognise speech: which episodes will fail, and the others' length", () => {
    expect(importCostText([own, bare], 2, false)).toMatchObject({
      cost: true,
      seconds: 47_100,
      text: "1 episode publishes its own transcript (taken at once); the other episode needs speech recognition, which this server does not have: it will fail. About 13 h 5 min of audio counts toward your allowance; episodes already in your history are free.",
    });
    expect(importCostText([bare], 1, false)).toMatchObject({ cost: false, seconds: 0 });
    expect(importCostText([bare], 1, false).text).toMatch(/cannot recognise speech: each episode would fail/);
  });
});

describe("retryImportItem", () => {
  it("POSTs the item's guid to its batch's retry endpoint and answers the item", async () => {
    const { retryImportItem } = await import("@/lib/browser/imports");
    const calls: { url: string; init: RequestInit }[] = [];
    const item = { guid: "ep/42", status: "queued" };
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(item), { status: 200, headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    try {
      expect(await retryImportItem("b 1", "ep/42")).toEqual(item);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/v1/import/b%201/items/retry");
    expect(calls[0]!.init.method).toBe("POST");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ guid: "ep/42" });
  });
});
