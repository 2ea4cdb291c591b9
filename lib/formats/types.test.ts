import { describe, expect, it } from "vitest";
import { FORMATS, parseFormat } from "./types";

describe("parseFormat", () => {
  it("accepts every canonical format", () => {
    for (const f of FORMATS) expect(parseFormat(f)).toBe(f);
    expect(FORMATS).toEqual(["json", "text", "srt", "vtt", "md"]);
  });

  it("accepts aliases, case-insensitively and trimmed", () => {
    expect(parseFormat("txt")).toBe("text");
    expect(parseFormat("TXT")).toBe("text");
    expect(parseFormat("markdown")).toBe("md");
    expect(parseFormat("  MarkDown \n")).toBe("md");
    expect(parseFormat(" SRT ")).toBe("srt");
    expect(parseFormat("Vtt")).toBe("vtt");
    expect(parseFormat("JSON")).toBe("json");
  });

  it("rejects anything else", () => {
    for (const bad of [
      "",
      " ",
      "html",
      "webvtt",
      "sub",
      ".srt",
      "s rt",
      "mdx",
      "text/plain",
      "jsonl",
      "constructor",
      "__proto__",
    ]) {
      expect(parseFormat(bad), bad).toBeNull();
    }
  });
});
