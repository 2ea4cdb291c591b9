import { describe, expect, it } from "vitest";
import { idDigest, noteFileName, noteStem } from "./file-name";

describe("noteFileName", () => {
  it("is the title and a short digest of the id, the same on every export", () => {
    const name = noteFileName("Why ice floats", "cm9abc");
    expect(name).toMatch(/^Why ice floats \([a-z2-7]{10}\)\.md$/);
    expect(noteFileName("Why ice floats", "cm9abc")).toBe(name);
    expect(noteFileName("Why ice floats", "cm9abd")).not.toBe(name);
    expect(idDigest("cm9abc")).toBe(idDigest("cm9abc"));
  });

  it("leaves out what Windows, macOS or Linux refuse, and what breaks a notes app's links", () => {
    expect(noteStem('a/b\\c:d*e?f"g<h>i|j')).toBe("a b c d e f g h i j");
    expect(noteStem("Episode #12 [live] ^ref")).toBe("Episode 12 live ref");
    expect(noteStem("tab\there\nnew\u0000line")).toBe("tab here new line");
    expect(noteStem("evil\u202ecod.exe")).toBe("evil cod.exe");
  });

  it("never ends in a dot or a space, nor begins with a dot", () => {
    expect(noteStem("...hidden")).toBe("hidden");
    expect(noteStem("Wait for it... ")).toBe("Wait for it");
    expect(noteStem(" . ")).toBe("");
  });

  it("never is a name Windows reserves for a device", () => {
    for (const reserved of ["CON", "prn", "Aux", "NUL", "COM1", "lpt9", "con.txt"]) {
      expect(noteStem(reserved)).toBe(`_${reserved}`);
    }
    expect(noteStem("Console")).toBe("Console");
  });

  it("keeps names within the bytes a file system allows, never splitting a character", () => {
    const cjk = noteStem("日本語のタイトル".repeat(40));
    expect(Buffer.byteLength(cjk)).toBeLessThanOrEqual(150);
    expect(cjk.length).toBe(50);
    const emoji = noteStem("🎉".repeat(100));
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(150);
    expect([...emoji].every((ch) => ch === "🎉")).toBe(true);
    expect(Buffer.byteLength(noteFileName("x".repeat(1000), "id"))).toBeLessThanOrEqual(150 + 16);
  });

  it("is in one Unicode form, so macOS and Linux name the same note alike", () => {
    expect(noteStem("Cafe\u0301")).toBe("Caf\u00e9");
  });

  it("falls back to the digest when the title leaves nothing", () => {
    expect(noteFileName("???", "cm9abc")).toBe(`${idDigest("cm9abc")}.md`);
  });
});
