import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { MAX_SPEAKERS } from "@/lib/formats/speakers";

import { textTurns } from "./text-turns";

describe("textTurns", () => {
  it("reads Name: at the start of a paragraph where the speaker changes", () => {
    const text = "Travis: Welcome to the show.\nIt is good to be here.\n\nDr. Jane Doe: Thanks for having me.\n";
    expect(textTurns(text)).toEqual([
      { speaker: "Travis", text: "Welcome to the show." },
      { speaker: "Travis", text: "It is good to be here." },
      { speaker: "Dr. Jane Doe", text: "Thanks for having me." },
    ]);
  });

  it("is null for a text that names no one (Note: and times are no names)", () => {
    expect(textTurns("Note: this is a transcript.\nAt 10:30 we start, the host: said")).toBeNull();
  });

  it("is null past the number of speakers Verbatim keeps", () => {
    const text = Array.from({ length: MAX_SPEAKERS + 1 }, (_, i) => `Speaker ${i}: Hello.`).join("\n");
    expect(textTurns(text)).toBeNull();
  });

  it("reads a real Markdown transcript's **Name:** labels; a **Break:** marker is no one's words and names no one", () => {
    // The Changelog's JS Party 306 (test/fixtures/feeds/README.md): 12 paragraphs labelled with a person's name,
    // one unlabelled (the speaker before goes on), one break.
    const text = readFileSync("test/fixtures/feeds/changelog-jsparty-306.md", "utf8");
    const turns = textTurns(text)!;
    expect(new Set(turns.map((t) => t.speaker))).toEqual(
      new Set(["Jerod Santo", "Dan Moore", "Adam Stacoviak", undefined]),
    );
    expect(turns.filter((t) => t.speaker !== undefined)).toHaveLength(13);
    // The paragraph without a label is still Dan's; the break names no one and its label is not a speaker.
    expect(turns[6]).toEqual({ speaker: "Dan Moore", text: expect.stringMatching(/^So what this blog/) });
    expect(turns[10]).toEqual({ text: "Break: [00:19:40.26]" });
    expect(turns[8]).toEqual({ speaker: "Adam Stacoviak", text: "[laughs] That's hilarious." });
    // Every word of the speech is kept: the file's words less its labels' and markup.
    const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
    const labelWords = [...text.matchAll(/^\*\*([^*]+):\*\*/gm)].reduce((n, m) => n + words(m[1]!), 0);
    expect(turns.reduce((n, t) => n + words(t.text), 0)).toBe(words(text.replace(/\*\*/g, "")) - labelWords + 1);
  });

  it("reads **Name**:, __Name:__ and Name (role): labels; a ## heading or an all-bold line ends the turn", () => {
    const text = [
      "## Intro",
      "**Leo Dion (host)**: Welcome.",
      "__Tim Mitra:__ Thanks.",
      "**Sponsors**",
      "This episode is brought to you by nobody.",
      "*Leo Dion (host):* Back to it.",
    ].join("\n");
    expect(textTurns(text)).toEqual([
      { text: "Intro" },
      { speaker: "Leo Dion (host)", text: "Welcome." },
      { speaker: "Tim Mitra", text: "Thanks." },
      { text: "Sponsors" },
      { text: "This episode is brought to you by nobody." },
      { speaker: "Leo Dion (host)", text: "Back to it." },
    ]);
  });
});
