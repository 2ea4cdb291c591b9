import { describe, expect, it } from "vitest";
import { problemRows, SAMPLE_LINK, sampleLinkFor, whatWorksRows, type WhatWorksView } from "@/lib/browser/what-works";
import { serverCapabilities } from "@/lib/health/capabilities";
import { judgeMail, judgeSpeechModel, judgeYoutube, type SetupLine } from "@/lib/health/setup-checks";

const refused = judgeYoutube("www.youtube.com", "10.0.0.2:3128", { ok: false, code: "upstream_refused", detail: "…" });
const noDns = judgeYoutube("www.youtube.com", null, { ok: false, code: "upstream_dns_failed", detail: "…" });
const modelMissing = judgeSpeechModel({
  provider: "local",
  model: "base-q5_1",
  reason: null,
  present: false,
  host: "huggingface.co",
  reachable: { ok: false, code: "ENOTFOUND" },
});
const mail = judgeMail("smtp.example.com:587", { ok: false, code: "EAUTH", detail: "535 Invalid login" });

function view(failing: SetupLine[] | null, operator: boolean, speech = true): WhatWorksView {
  return {
    capabilities: serverCapabilities(failing, speech),
    speechRecognition: speech,
    recogniser: "whisper.cpp on this server, model base-q5_1",
    ...(operator ? { problems: failing } : {}),
  };
}
const row = (v: WhatWorksView, testId: string) => whatWorksRows(v).find((r) => r.testId === testId);
const everything = (v: WhatWorksView) => JSON.stringify([whatWorksRows(v), problemRows(v)]);

describe("What works on this server: every line true of what it names", () => {
  it("all fine: links on every platform and files, and the sample", () => {
    const fine = view([], false);
    expect(row(fine, "can-captions")).toMatchObject({
      state: true,
      text: expect.stringMatching(/^YouTube, X, TikTok/),
    });
    expect(row(fine, "can-asr")).toMatchObject({ state: true });
    expect(sampleLinkFor(fine.capabilities)).toBe(SAMPLE_LINK);
  });

  it("YouTube out of reach: the captions line does not name YouTube, a line says YouTube links fail, no YouTube sample", () => {
    const v = view([refused], false);
    const captions = row(v, "can-captions")!;
    expect(captions.state).toBe(true);
    expect(captions.text).not.toContain("YouTube");
    expect(captions.text).toMatch(/^X, TikTok, Facebook, Instagram, RedNote and Vimeo videos that have captions/);
    expect(row(v, "cannot-youtube")).toMatchObject({ state: false, title: "YouTube links" });
    expect(sampleLinkFor(v.capabilities)).toBeNull();
    // No DNS: no link works, and the captions line says so.
    const none = view([noDns], false);
    expect(row(none, "can-captions")).toMatchObject({
      state: false,
      text: expect.stringMatching(/^Not on this server/),
    });
    expect(sampleLinkFor(none.capabilities)).toBeNull();
  });

  it("while the checks run: every line says checking, and the sample is not offered until YouTube answers", () => {
    const v = view(null, false);
    expect(whatWorksRows(v).map((r) => [r.testId, r.state])).toEqual([
      ["can-captions", "checking"],
      ["can-asr", "checking"],
      ["setup-checking", "checking"],
    ]);
    expect(sampleLinkFor(v.capabilities)).toBeNull();
  });

  it("someone who does not run the server: what they can do, with no host, port, error or setting", () => {
    const v = view([refused, modelMissing, mail], false);
    expect(row(v, "can-asr")).toMatchObject({
      state: false,
      text: "Not on this server right now: files cannot be transcribed here.",
    });
    expect(problemRows(v)).toEqual([]);
    expect(everything(v)).not.toMatch(/10\.0\.0\.2|3128|huggingface|smtp|ENOTFOUND|EAUTH|_URL|_PATH|PROXIES/);
  });

  it("the operator: the files line gives the model's cause and fix, and every other failing check is a row", () => {
    const v = view([refused, modelMissing, mail], true);
    expect(row(v, "can-asr")!.text).toMatch(
      /^Not on this server yet: local model base-q5_1 missing, .*ASR_LOCAL_MODEL_PATH/,
    );
    expect(problemRows(v).map((line) => line.id)).toEqual(["youtube", "mail"]);
    expect(everything(v)).toContain("10.0.0.2:3128");
  });

  it("a server without speech recognition says so to everyone, without the setting, and that podcasts' own transcripts work", () => {
    const v = view([], false, false);
    expect(row(v, "can-asr")).toMatchObject({
      state: false,
      text: "Not on this server: they need speech recognition, which has not been set up here.",
    });
    expect(row(v, "can-asr")!.title).toMatch(/podcast episodes without a transcript/);
    expect(row(v, "can-podcast-transcripts")).toMatchObject({ state: true });
    // No line says podcasts as such are not available.
    for (const line of whatWorksRows(v).filter((r) => r.state === false))
      expect(line.title).not.toMatch(/^Files, podcasts/);
    // With speech recognition, the files line speaks for podcasts too.
    expect(row(view([], false), "can-podcast-transcripts")).toBeUndefined();
  });
});
