import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchFollows, FOLLOW_STATE_LABELS, setFollowState, stopFollow } from "@/lib/browser/follows";
import { FOLLOW_STATES } from "@/lib/follows/schemas";

afterEach(() => vi.unstubAllGlobals());

describe("browser follows", () => {
  it("labels every state the API answers", () => {
    expect(Object.keys(FOLLOW_STATE_LABELS).sort()).toEqual([...FOLLOW_STATES].sort());
  });

  it("pauses with PATCH and stops with DELETE (204, no body)", async () => {
    const calls: [string, RequestInit][] = [];
    vi.stubGlobal("fetch", async (path: string, init: RequestInit) => {
      calls.push([path, init]);
      if (init.method === "DELETE") return new Response(null, { status: 204 });
      return Response.json(init.method === "PATCH" ? { id: "f1", state: "paused" } : []);
    });
    expect(await fetchFollows()).toEqual([]);
    expect(await setFollowState("f 1", "paused")).toMatchObject({ state: "paused" });
    await stopFollow("f1");
    expect(calls.map(([path, init]) => `${init.method ?? "GET"} ${path}`)).toEqual([
      "GET /v1/follows",
      "PATCH /v1/follows/f%201",
      "DELETE /v1/follows/f1",
    ]);
    expect(JSON.parse(calls[1]![1].body as string)).toEqual({ state: "paused" });
  });
});
