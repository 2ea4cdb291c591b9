import { describe, expect, it } from "vitest";
import { BEGIN_MARKER, digestOf, END_MARKER, framedNote, mergeNote } from "./note-merge";

const note = (body: string) => `---\ntitle: Talk\nverbatim_id: t1\n---\n\n# Talk\n\n${body}\n`;
const v1 = note("[00:00](https://x.test/?t=0) Hello wrld.");
const v2 = note("[00:00](https://x.test/?t=0) Hello world.");

describe("a note in a folder, merged with what the person made of it", () => {
  it("frames Verbatim's part between the markers, under the front matter", () => {
    const framed = framedNote(v1);
    expect(framed.startsWith("---\ntitle: Talk\nverbatim_id: t1\n---\n\n")).toBe(true);
    expect(framed).toContain(`${BEGIN_MARKER}\n# Talk\n`);
    expect(framed.endsWith(`Hello wrld.\n${END_MARKER}\n`)).toBe(true);
  });

  it("writes a new file, and replaces a file the person left as Verbatim wrote it", () => {
    expect(mergeNote(null, v1, null)).toEqual({ action: "write", content: framedNote(v1), merged: false });
    const written = framedNote(v1);
    expect(mergeNote(written, v2, digestOf(written))).toEqual({
      action: "write",
      content: framedNote(v2),
      merged: false,
    });
    expect(mergeNote(written, v1, digestOf(written))).toEqual({ action: "same" });
  });

  it("replaces only its block in a note the person edited, keeping their front matter and their notes", () => {
    const edited = framedNote(v1)
      .replace("title: Talk\n", "title: Talk\ntags: [mine]\n")
      .concat("\n## My notes\n\nGreat point at 00:00.\n");
    const merged = mergeNote(edited, v2, digestOf(framedNote(v1)));
    expect(merged.action).toBe("write");
    const content = (merged as { content: string }).content;
    expect(content).toContain("tags: [mine]");
    expect(content).toContain("Hello world.");
    expect(content).not.toContain("Hello wrld.");
    expect(content.endsWith("\n## My notes\n\nGreat point at 00:00.\n")).toBe(true);
    // Notes the person wrote above the block stay too.
    const above = edited.replace(BEGIN_MARKER, `Read this first.\n\n${BEGIN_MARKER}`);
    const content2 = (mergeNote(above, v2, null) as { content: string }).content;
    expect(content2).toContain("Read this first.\n\n" + BEGIN_MARKER);
    expect(content2).toContain("Hello world.");
  });

  it("keeps an edited note whose markers are gone, and says so", () => {
    const edited = framedNote(v1).replace(`${END_MARKER}\n`, "").concat("My own ending.\n");
    const outcome = mergeNote(edited, v2, digestOf(framedNote(v1)));
    expect(outcome.action).toBe("keep");
    expect((outcome as { why: string }).why).toMatch(/your version is kept/);
    // Two blocks, or the end before the begin: the same.
    const doubled = framedNote(v1) + framedNote(v1).slice(framedNote(v1).indexOf(BEGIN_MARKER));
    expect(mergeNote(doubled, v2, null).action).toBe("keep");
    const swapped = `${note("x")}${END_MARKER}\nmiddle\n${BEGIN_MARKER}\n`;
    expect(mergeNote(swapped, v2, null).action).toBe("keep");
  });

  it("does not write a file whose block already says the same", () => {
    const edited = framedNote(v2).concat("\nmine\n");
    expect(mergeNote(edited, v2, null)).toEqual({ action: "same" });
  });

  it("keeps a file of the same name Verbatim never wrote and that has no block", () => {
    expect(mergeNote("# My own note\n", v1, null).action).toBe("keep");
  });
});
