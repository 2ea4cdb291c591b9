import { describe, expect, it } from "vitest";
import { pickTrack } from "@/lib/captions/pick-track";
import type { CaptionTrack } from "@/lib/captions/types";

const track = (lang: string, kind: CaptionTrack["kind"]): CaptionTrack => ({
  lang,
  kind,
  name: lang,
  ref: `${lang}:${kind}`,
});

describe("pickTrack", () => {
  it("prefers the exact tag, manual before auto", () => {
    const tracks = [track("en", "auto"), track("en", "manual"), track("en-US", "manual")];
    expect(pickTrack(tracks, "en")?.ref).toBe("en:manual");
    expect(pickTrack(tracks, "en-US")?.ref).toBe("en-US:manual");
  });

  it("falls back to the primary subtag both ways", () => {
    expect(pickTrack([track("en-US", "manual")], "en")?.ref).toBe("en-US:manual");
    expect(pickTrack([track("en", "auto")], "en-GB")?.ref).toBe("en:auto");
    expect(pickTrack([track("pt-BR", "auto"), track("pt-PT", "manual")], "pt")?.ref).toBe("pt-PT:manual");
  });

  it("an exact auto track beats a manual regional variant", () => {
    expect(pickTrack([track("de-AT", "manual"), track("de", "auto")], "de")?.ref).toBe("de:auto");
  });

  it("never picks a machine translation when an original track has the language", () => {
    expect(pickTrack([track("de", "translated"), track("de", "auto")], "de")?.ref).toBe("de:auto");
    expect(pickTrack([track("de", "translated"), track("de-AT", "auto")], "de")?.ref).toBe("de-AT:auto");
    expect(pickTrack([track("zh-Hans", "translated"), track("zh-Hant", "manual")], "zh-Hans")?.ref).toBe(
      "zh-Hant:manual",
    );
    expect(pickTrack([track("en", "manual"), track("fr", "translated")], "fr")?.ref).toBe("fr:translated");
    expect(pickTrack([track("en", "manual"), track("fr", "translated")], "fr-CA")?.ref).toBe("fr:translated");
  });

  it("returns null when the language is not there", () => {
    expect(pickTrack([track("en", "manual")], "fr")).toBeNull();
    expect(pickTrack([], "en")).toBeNull();
  });
});
