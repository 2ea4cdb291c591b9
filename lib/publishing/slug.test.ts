import { describe, expect, it } from "vitest";
import { isSlug, newSlug, slugWords } from "@/lib/publishing/slug";

describe("slugs", () => {
  it("keeps the title's words, folded to ASCII, at most eight and 60 characters", () => {
    expect(slugWords('How Bread Rises: Yeast, Gluten & the "Oven Spring"')).toBe(
      "how-bread-rises-yeast-gluten-the-oven-spring",
    );
    expect(slugWords("Crème brûlée — für Anfänger!")).toBe("creme-brulee-fur-anfanger");
    expect(slugWords("one two three four five six seven eight nine ten")).toBe(
      "one-two-three-four-five-six-seven-eight",
    );
    expect(slugWords("x".repeat(70) + " short")).toBe("transcript");
    expect(slugWords("Talk (final).wav")).toBe("talk-final-wav");
  });

  it("falls back to 'transcript' when the title has no letters or digits", () => {
    expect(slugWords(null)).toBe("transcript");
    expect(slugWords("日本語のタイトル")).toBe("transcript");
    expect(slugWords("!!!")).toBe("transcript");
  });

  it("adds a six-character random suffix, and every slug it makes is a slug", () => {
    const slugs = new Set(Array.from({ length: 200 }, () => newSlug("A talk")));
    expect(slugs.size).toBe(200);
    for (const slug of slugs) {
      expect(slug).toMatch(/^a-talk-[a-z2-9]{6}$/);
      expect(isSlug(slug)).toBe(true);
    }
  });

  it("refuses what cannot be a slug", () => {
    for (const value of ["", "A-Talk", "a--b", "-a", "a-", "../etc", "a b", "a".repeat(81), "index.xml"])
      expect(isSlug(value), value).toBe(false);
  });
});
