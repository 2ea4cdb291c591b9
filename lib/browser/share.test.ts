import { describe, expect, it } from "vitest";
import { momentUrl, shareLink, type ShareTarget } from "@/lib/browser/share";

function target(share: ShareTarget["share"] | undefined, copyFails = false) {
  const copied: string[] = [];
  const shared: ShareData[] = [];
  const nav: ShareTarget = {
    share: share && ((data) => (shared.push(data), share(data))),
    clipboard: {
      writeText: async (text) => {
        if (copyFails) throw new Error("denied");
        copied.push(text);
      },
    },
  };
  return { nav, copied, shared };
}

describe("shareLink", () => {
  it("uses the share sheet where there is one", async () => {
    const { nav, copied, shared } = target(async () => undefined);
    expect(await shareLink("https://v.example/t/a#t5-2", "A talk", nav)).toBe("shared");
    expect(shared).toEqual([{ title: "A talk", url: "https://v.example/t/a#t5-2" }]);
    expect(copied).toEqual([]);
  });

  it("copies the link where there is none, or the sheet fails; a closed sheet is left alone", async () => {
    const none = target(undefined);
    expect(await shareLink("https://v.example/t/a", "A talk", none.nav)).toBe("copied");
    expect(none.copied).toEqual(["https://v.example/t/a"]);

    const broken = target(async () => Promise.reject(new TypeError("not allowed")));
    expect(await shareLink("https://v.example/t/a", "A talk", broken.nav)).toBe("copied");

    const closed = target(async () => Promise.reject(Object.assign(new Error("closed"), { name: "AbortError" })));
    expect(await shareLink("https://v.example/t/a", "A talk", closed.nav)).toBe("cancelled");
    expect(closed.copied).toEqual([]);

    expect(await shareLink("https://v.example/t/a", "A talk", target(undefined, true).nav)).toBe("failed");
  });

  it("builds a moment's address from the page's, dropping its hash and query", () => {
    expect(momentUrl({ origin: "https://v.example", pathname: "/t/a-talk" }, "t61-12")).toBe(
      "https://v.example/t/a-talk#t61-12",
    );
    expect(momentUrl({ origin: "https://v.example", pathname: "/t/a-talk" }, null)).toBe("https://v.example/t/a-talk");
  });
});
