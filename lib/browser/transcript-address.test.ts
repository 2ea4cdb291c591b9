import { describe, expect, it } from "vitest";
import {
  parseEditTarget,
  parsePublishedSlug,
  publishFailure,
  transcriptAddress,
} from "@/lib/browser/transcript-address";
import { parseMomentSeconds } from "@/lib/browser/search";

describe("the viewer's address", () => {
  it("links a moment as the viewer reads it back", () => {
    const href = transcriptAddress("abc", { t: 12.3456 });
    expect(href).toBe("/dashboard?transcript=abc&t=12.346");
    expect(parseMomentSeconds(new URL(href, "http://x").searchParams.get("t"))).toBe(12.346);
    expect(transcriptAddress("abc", { t: 0 })).toBe("/dashboard?transcript=abc&t=0");
  });

  it("opens the editor: all of it, or one paragraph", () => {
    expect(transcriptAddress("abc", { edit: "all" })).toBe("/dashboard?transcript=abc&edit=all");
    expect(transcriptAddress("abc", { edit: 4 })).toBe("/dashboard?transcript=abc&edit=4");
    expect(parseEditTarget("all")).toBe("all");
    expect(parseEditTarget("4")).toBe(4);
    for (const bad of [null, "", "-1", "1.5", "x", "9999999"]) expect(parseEditTarget(bad)).toBeNull();
  });

  it("takes a published slug and an error code only in their own shapes", () => {
    expect(parsePublishedSlug("a-talk-x7k2")).toBe("a-talk-x7k2");
    for (const bad of [null, "", "A", "a--b", "../x", "a b"]) expect(parsePublishedSlug(bad)).toBeNull();
    expect(publishFailure("not_found")).toMatch(/^Not published: /);
    expect(publishFailure("http_500")).toBe("Not published. Try again.");
    expect(publishFailure("toString")).toBeNull();
    expect(publishFailure("<b>x</b>")).toBeNull();
  });
});
