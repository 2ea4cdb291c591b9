import { describe, expect, it } from "vitest";
import { fromAssemblyAiLanguage, fromWhisperLanguage, primaryLanguage, toAssemblyAiLanguage } from "./language";

describe("language codes", () => {
  it("maps BCP-47 to AssemblyAI's codes", () => {
    expect(toAssemblyAiLanguage("en-US")).toBe("en_us");
    expect(toAssemblyAiLanguage("en_us")).toBe("en_us");
    expect(toAssemblyAiLanguage("en-GB")).toBe("en_uk");
    expect(toAssemblyAiLanguage("en-AU")).toBe("en_au");
    expect(toAssemblyAiLanguage("en-IN")).toBe("en");
    expect(toAssemblyAiLanguage("en")).toBe("en");
    expect(toAssemblyAiLanguage("de-CH")).toBe("de_ch");
    expect(toAssemblyAiLanguage("de-AT")).toBe("de");
    expect(toAssemblyAiLanguage("pt-BR")).toBe("pt");
    expect(toAssemblyAiLanguage("zh-Hant-TW")).toBe("zh");
    expect(toAssemblyAiLanguage("iw")).toBe("he");
    expect(toAssemblyAiLanguage("jv")).toBe("jw");
    expect(toAssemblyAiLanguage("nb-NO")).toBe("no");
    expect(toAssemblyAiLanguage("fil")).toBe("tl");
    expect(toAssemblyAiLanguage("haw")).toBe("haw");
  });

  it("gives null (detect) for unknown or unspecified languages", () => {
    expect(toAssemblyAiLanguage("xx")).toBeNull();
    expect(toAssemblyAiLanguage("tlh")).toBeNull();
    expect(toAssemblyAiLanguage("und")).toBeNull();
    expect(toAssemblyAiLanguage("")).toBeNull();
    expect(toAssemblyAiLanguage("auto")).toBeNull();
  });

  it("maps AssemblyAI's codes back", () => {
    expect(fromAssemblyAiLanguage("en_us")).toBe("en-US");
    expect(fromAssemblyAiLanguage("en_uk")).toBe("en-GB");
    expect(fromAssemblyAiLanguage("de_ch")).toBe("de-CH");
    expect(fromAssemblyAiLanguage("fr")).toBe("fr");
    expect(fromAssemblyAiLanguage("jw")).toBe("jv");
    expect(fromAssemblyAiLanguage(null)).toBeNull();
  });

  it("takes the primary subtag for Whisper", () => {
    expect(primaryLanguage("en-US")).toBe("en");
    expect(primaryLanguage("PT_br")).toBe("pt");
    expect(primaryLanguage("zh-Hans")).toBe("zh");
    expect(primaryLanguage("iw")).toBe("he");
    expect(primaryLanguage("und")).toBeNull();
    expect(primaryLanguage("")).toBeNull();
  });

  it("reads Whisper's language names and codes", () => {
    expect(fromWhisperLanguage("english")).toBe("en");
    expect(fromWhisperLanguage("English")).toBe("en");
    expect(fromWhisperLanguage("haitian creole")).toBe("ht");
    expect(fromWhisperLanguage("javanese")).toBe("jv");
    expect(fromWhisperLanguage("de")).toBe("de");
    expect(fromWhisperLanguage("pt-BR")).toBe("pt-BR");
    expect(fromWhisperLanguage("klingonese")).toBeNull();
    expect(fromWhisperLanguage(undefined)).toBeNull();
  });
});
