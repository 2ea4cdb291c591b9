import { describe, expect, it } from "vitest";

import { attachmentDisposition, safeFileStem } from "./download-name";

describe("download names", () => {
  it("a title becomes a safe file name: no separators, control or bidi characters, no dots at the ends, 100 characters at most", () => {
    expect(safeFileStem("../../etc/passwd")).toBe("etc passwd");
    expect(safeFileStem('Q&A: "what?" <live>\u202e\u0007')).toBe("Q&A what live");
    expect(safeFileStem("  ...hidden. ")).toBe("hidden");
    expect([...safeFileStem("长".repeat(300))]).toHaveLength(100);
    expect(safeFileStem("/:*?")).toBe("");
  });

  it("ASCII titles get a plain filename; others filename* (RFC 5987) and an ASCII fallback; nothing usable gives the id name", () => {
    expect(attachmentDisposition("Why ice floats", "en", "youtube-abc-en", "srt")).toBe(
      'attachment; filename="Why ice floats (en).srt"',
    );
    expect(attachmentDisposition("Müller über Eis", "de", "youtube-abc-de", "txt")).toBe(
      "attachment; filename=\"Muller uber Eis (de).txt\"; filename*=UTF-8''M%C3%BCller%20%C3%BCber%20Eis%20%28de%29.txt",
    );
    expect(attachmentDisposition("讲座", "zh", "podcast-1f2e-zh", "vtt")).toBe(
      "attachment; filename=podcast-1f2e-zh.vtt; filename*=UTF-8''%E8%AE%B2%E5%BA%A7%20%28zh%29.vtt",
    );
    expect(attachmentDisposition(null, "en", "youtube-kXq8vN2Lr5A-en", "txt")).toBe(
      "attachment; filename=youtube-kXq8vN2Lr5A-en.txt",
    );
    expect(attachmentDisposition("???", "en", "youtube-kXq8vN2Lr5A-en", "txt")).toBe(
      "attachment; filename=youtube-kXq8vN2Lr5A-en.txt",
    );
  });
});
