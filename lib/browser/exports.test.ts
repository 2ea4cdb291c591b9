import { describe, expect, it } from "vitest";
import { attachmentName, historyExportSelection } from "./exports";

describe("historyExportSelection", () => {
  it("exports what the list's filters hold, or the whole library without one", () => {
    expect(historyExportSelection({ q: "", platform: null })).toEqual({ library: true });
    expect(historyExportSelection({ q: "  grit ", platform: null })).toEqual({
      history: { platform: null, q: "grit" },
    });
    expect(historyExportSelection({ q: "", platform: "podcast" })).toEqual({
      history: { platform: "podcast", q: null },
    });
  });
});

describe("attachmentName", () => {
  it("reads the UTF-8 name first, then the plain one", () => {
    expect(
      attachmentName(
        `attachment; filename="Verbatim notes 2026-01-02.zip"; filename*=UTF-8''Caf%C3%A9%20notes.zip`,
        "x",
      ),
    ).toBe("Café notes.zip");
    expect(attachmentName(`attachment; filename="Verbatim notes.zip"`, "x")).toBe("Verbatim notes.zip");
    expect(attachmentName(`attachment; filename*=UTF-8''%E0%A4%A.zip; filename="plain.zip"`, "x")).toBe("plain.zip");
    expect(attachmentName(null, "fallback.zip")).toBe("fallback.zip");
  });
});
