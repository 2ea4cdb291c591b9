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
});
