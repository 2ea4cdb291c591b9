import { afterEach, describe, expect, it, vi } from "vitest";
import {
  fetchFollows,
  FOLLOW_STATE_LABELS,
  followButtons,
  lastCheckText,
  setFollowState,
  stopFollow,
} from "@/lib/browser/follows";
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

describe("what the last check found", () => {
  const now = new Date("2026-11-27T12:00:00Z");
  const follow = { kind: "podcast" as const, state: "active" as const, last_checked_at: "2026-11-27T11:58:00Z" };
  const item = (status: "seen" | "queued" | "done", found_at: string, title = "Episode 604") => ({
    status,
    found_at,
    title,
  });

  it("says so when nothing new came, and before the first check", () => {
    expect(lastCheckText({ ...follow, last_checked_at: null }, [], now)).toBe("Not checked yet.");
    // What was there when the follow began is remembered, not new.
    expect(lastCheckText(follow, [item("seen", "2026-11-27T11:57:59Z")], now)).toBe(
      "Last checked 2 min ago: no new episodes.",
    );
    // An item an earlier check found is not this check's.
    expect(lastCheckText(follow, [item("done", "2026-11-26T09:00:00Z")], now)).toBe(
      "Last checked 2 min ago: no new episodes.",
    );
  });

  it("names what the last check found, and a failed check as failed", () => {
    expect(lastCheckText(follow, [item("queued", "2026-11-27T11:57:58Z")], now)).toBe(
      "Last checked 2 min ago: 1 new episode, “Episode 604”.",
    );
    expect(
      lastCheckText(
        { ...follow, kind: "youtube" },
        [item("queued", "2026-11-27T11:57:58Z"), item("done", "2026-11-27T11:57:58Z")],
        now,
      ),
    ).toBe("Last checked 2 min ago: 2 new videos.");
    expect(lastCheckText({ ...follow, state: "failing" }, [], now)).toBe("Last checked 2 min ago: the check failed.");
  });
});

describe("a follow's buttons", () => {
  /** Label in name (WCAG 2.5.3): the accessible name holds the visible text, as speech input says it. */
  const spoken = (text: string) => text.replace(/…$/, "").toLowerCase();

  it.each([
    ["podcast", "active", false],
    ["podcast", "paused", false],
    ["youtube", "active", true],
  ] as const)("a %s follow, %s, checking: %s: every name holds its visible text", (kind, state, checking) => {
    const buttons = followButtons({ kind, state }, "Call of Tuesday", checking);
    for (const button of Object.values(buttons)) {
      expect(button.label.toLowerCase()).toContain(spoken(button.text));
      expect(button.label).toContain("Call of Tuesday");
    }
  });

  it("names what Check now looks for", () => {
    expect(followButtons({ kind: "podcast", state: "active" }, "Call of Tuesday", false).check).toEqual({
      text: "Check now",
      label: "Check now for new episodes of Call of Tuesday",
    });
    expect(followButtons({ kind: "youtube", state: "paused" }, "A channel", false).toggle).toEqual({
      text: "Resume",
      label: "Resume A channel",
    });
  });
});
