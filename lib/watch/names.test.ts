import { describe, expect, it } from "vitest";
import { isCandidate, isInside, isWalkedFolder, noteName, resultName, tempName } from "./names";
import { watchFormats } from "./settings";

describe("watch folder names", () => {
  it("reads recordings, never its own results, notes, hidden files or copies in progress", () => {
    for (const name of ["talk.mp3", "Interview 2 — café.m4a", "no-extension", "clip.MOV", "notes.pdf"])
      expect(isCandidate(name), name).toBe(true);
    for (const name of [
      "talk.mp3.srt",
      "talk.mp3.md",
      "talk.mp3.VTT",
      "talk.mp3.json",
      "notes.pdf.verbatim-error.txt",
      ".talk.mp3.srt.verbatim-0a1b.tmp",
      ".DS_Store",
      "._talk.mp3",
      "talk.mp3.part",
      "talk.mp3.crdownload",
      "~$draft.docx",
      "talk.mp3~",
    ])
      expect(isCandidate(name), name).toBe(false);
    expect(isWalkedFolder("2026")).toBe(true);
    expect(isWalkedFolder(".Trash")).toBe(false);
    expect(isWalkedFolder("@eaDir")).toBe(false);
  });

  it("names results and notes after the whole file name, so talk.mp3 and talk.wav never share one", () => {
    expect(resultName("talk.mp3", "srt")).toBe("talk.mp3.srt");
    expect(resultName("talk.wav", "srt")).toBe("talk.wav.srt");
    expect(resultName("talk.mp3", "text")).toBe("talk.mp3.txt");
    expect(resultName("talk.mp3", "md")).toBe("talk.mp3.md");
    expect(noteName("notes.pdf")).toBe("notes.pdf.verbatim-error.txt");
    expect(tempName("talk.mp3.srt", "abc")).toBe(".talk.mp3.srt.verbatim-abc.tmp");
    expect(isCandidate(tempName("talk.mp3.srt", "abc"))).toBe(false);
  });

  it("tells inside from outside by path segments, on Linux and macOS paths alike", () => {
    expect(isInside("/srv/watch", "/srv/watch/a/b.mp3")).toBe(true);
    expect(isInside("/srv/watch", "/srv/watch")).toBe(true);
    expect(isInside("/srv/watch", "/srv/watch-other/b.mp3")).toBe(false);
    expect(isInside("/srv/watch", "/srv/b.mp3")).toBe(false);
    expect(isInside("/Users/ana/Library/Mobile Documents/Rec", "/Users/ana/Library/Mobile Documents/Rec/ä.m4a")).toBe(
      true,
    );
    expect(isInside("/Users/ana/Rec", "/Users/ana/Rec/../Secrets/x.m4a")).toBe(false);
  });

  it("reads WATCH_FORMATS as the API's tokens, and names a wrong one", () => {
    expect(watchFormats("srt,md")).toEqual(["srt", "md"]);
    expect(watchFormats(" TXT , markdown,txt ")).toEqual(["text", "md"]);
    expect(() => watchFormats("srt,docx")).toThrow(/^WATCH_FORMATS: "docx" is not a format/);
    expect(() => watchFormats(" , ")).toThrow(/^WATCH_FORMATS: name at least one/);
    expect(watchFormats(" None ")).toEqual([]);
    expect(() => watchFormats("none,srt")).toThrow(/^WATCH_FORMATS: "none" is not a format/);
  });
});
