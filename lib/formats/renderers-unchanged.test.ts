import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { captionSegments, parseCaptions } from "@/lib/captions/parse";
import { SAMPLE_META } from "@/test/formats/fixtures";
import { renderCorpus } from "@/test/formats/render-corpus";
import { REAL_CAPTION_FILES, readCaptionFile } from "@/test/fixtures/captions";
import { FORMATS, renderTimestampedText, renderTranscript } from "./index";

/**
 * SHA-256 (first 16 hex digits) of every rendering of test/formats/render-corpus.ts as the renderers gave it
 * before they were restructured for speed (shared scratch arrays, Latin-1 output buffer),
 * recorded with the code of commit 4af76f5. Output must stay byte-identical.
 */
const RECORDED: Record<string, string> = {
  "webvtt-py.youtube_dl.en.vtt \u00b7 json": "78bdebb8a0a13f1c",
  "webvtt-py.youtube_dl.en.vtt \u00b7 text": "833eef99d6235baf",
  "webvtt-py.youtube_dl.en.vtt \u00b7 srt": "9377946c2ab814a7",
  "webvtt-py.youtube_dl.en.vtt \u00b7 vtt": "dae02be25c962b2a",
  "webvtt-py.youtube_dl.en.vtt \u00b7 md": "ea8abf413270fd32",
  "webvtt-py.youtube_dl.en.vtt \u00b7 timestamped text": "e5497f86e1d34f42",
  "t2o2.auto.en.vtt \u00b7 json": "ab9801115b02178c",
  "t2o2.auto.en.vtt \u00b7 text": "aef4fb238321f673",
  "t2o2.auto.en.vtt \u00b7 srt": "5624d52ccd30ff06",
  "t2o2.auto.en.vtt \u00b7 vtt": "6f9c6920ed842fbb",
  "t2o2.auto.en.vtt \u00b7 md": "9fc6233b7d398527",
  "t2o2.auto.en.vtt \u00b7 timestamped text": "e045f9ba057080d3",
  "sponsor-inference.auto.en.vtt \u00b7 json": "e840bceaa1d037cd",
  "sponsor-inference.auto.en.vtt \u00b7 text": "24c2c37768dbbb4e",
  "sponsor-inference.auto.en.vtt \u00b7 srt": "2b47706121512390",
  "sponsor-inference.auto.en.vtt \u00b7 vtt": "57889d54cabb458e",
  "sponsor-inference.auto.en.vtt \u00b7 md": "b1dd94808d0ee974",
  "sponsor-inference.auto.en.vtt \u00b7 timestamped text": "9847a6f9041ac376",
  "gfedoseev.auto.ru.vtt \u00b7 json": "32e94ad2377a1692",
  "gfedoseev.auto.ru.vtt \u00b7 text": "b8126da5e2fc9736",
  "gfedoseev.auto.ru.vtt \u00b7 srt": "17a398b82260b379",
  "gfedoseev.auto.ru.vtt \u00b7 vtt": "dc762b25e9925f5b",
  "gfedoseev.auto.ru.vtt \u00b7 md": "1c357d9e7e4df882",
  "gfedoseev.auto.ru.vtt \u00b7 timestamped text": "4fd0e382b8b7eba4",
  "ytenglishhub.auto.en.json3 \u00b7 json": "4ce6ab86cef794a7",
  "ytenglishhub.auto.en.json3 \u00b7 text": "5c030befb5848daf",
  "ytenglishhub.auto.en.json3 \u00b7 srt": "d56ad8b44fc62689",
  "ytenglishhub.auto.en.json3 \u00b7 vtt": "bc36f7946c22b29d",
  "ytenglishhub.auto.en.json3 \u00b7 md": "2fbfa83800314092",
  "ytenglishhub.auto.en.json3 \u00b7 timestamped text": "5014d2793b603c0d",
  "gfedoseev.lecture.manual.ru.vtt \u00b7 json": "e2661b6825c4d773",
  "gfedoseev.lecture.manual.ru.vtt \u00b7 text": "eaf45f1910a1aa01",
  "gfedoseev.lecture.manual.ru.vtt \u00b7 srt": "8e4b56a7f1c7d47c",
  "gfedoseev.lecture.manual.ru.vtt \u00b7 vtt": "686e65f72de45ed3",
  "gfedoseev.lecture.manual.ru.vtt \u00b7 md": "b18d528efc5cb153",
  "gfedoseev.lecture.manual.ru.vtt \u00b7 timestamped text": "806dcf598599e276",
  "kyamashiro.grit.en.xml \u00b7 json": "39a2ba983c470f77",
  "kyamashiro.grit.en.xml \u00b7 text": "dfae11fd1ebda072",
  "kyamashiro.grit.en.xml \u00b7 srt": "a9092c0d75785017",
  "kyamashiro.grit.en.xml \u00b7 vtt": "0d33f1242ec1dd97",
  "kyamashiro.grit.en.xml \u00b7 md": "0f075fe436fc1fbb",
  "kyamashiro.grit.en.xml \u00b7 timestamped text": "e77e1f0fe82e944a",
  "ytenglishhub.cookie-monster.en.srt \u00b7 json": "3b208349a67fbc6c",
  "ytenglishhub.cookie-monster.en.srt \u00b7 text": "43f20dedaf3f6f5c",
  "ytenglishhub.cookie-monster.en.srt \u00b7 srt": "69a21514e41576ed",
  "ytenglishhub.cookie-monster.en.srt \u00b7 vtt": "c9a9de1a9c180540",
  "ytenglishhub.cookie-monster.en.srt \u00b7 md": "ccbc39f50d36a43a",
  "ytenglishhub.cookie-monster.en.srt \u00b7 timestamped text": "3e9c6a22abeacd8e",
  "webvtt-py.sample.srt \u00b7 json": "33b6525986d55957",
  "webvtt-py.sample.srt \u00b7 text": "0fc373ab0c808eac",
  "webvtt-py.sample.srt \u00b7 srt": "a01f64ff8601ff35",
  "webvtt-py.sample.srt \u00b7 vtt": "a3e7f63764176b4b",
  "webvtt-py.sample.srt \u00b7 md": "e4255f585f3c5bab",
  "webvtt-py.sample.srt \u00b7 timestamped text": "765d2267fcbb05d0",
  "10-hour bench transcript \u00b7 json": "1b19ba3c70efc494",
  "10-hour bench transcript \u00b7 text": "598b424a72ef3e5f",
  "10-hour bench transcript \u00b7 srt": "e6be7d56aa411e3b",
  "10-hour bench transcript \u00b7 vtt": "5ef80b635f471783",
  "10-hour bench transcript \u00b7 md": "c8eff2f4246cf8bf",
  "10-hour bench transcript \u00b7 timestamped text": "ac069188769ae1a2",
  "Latin-1 only \u00b7 json": "6e5429f1145aad32",
  "Latin-1 only \u00b7 text": "a15f89c388793dda",
  "Latin-1 only \u00b7 srt": "d1e8af9ca15e4bad",
  "Latin-1 only \u00b7 vtt": "e7c1c225a74e56a3",
  "Latin-1 only \u00b7 md": "2bfedd3d283a7d88",
  "Latin-1 only \u00b7 timestamped text": "61e4143eb837f325",
  "Latin-1, wide near the end \u00b7 json": "81768e597e9461ee",
  "Latin-1, wide near the end \u00b7 text": "c1d8ac82f740cea5",
  "Latin-1, wide near the end \u00b7 srt": "6dd8a5371d621aa3",
  "Latin-1, wide near the end \u00b7 vtt": "bb59191098e5eea6",
  "Latin-1, wide near the end \u00b7 md": "258423145c91491c",
  "Latin-1, wide near the end \u00b7 timestamped text": "5522cec5849e84e6",
  "unsorted, same-start, odd whitespace \u00b7 json": "2cf7fff13cd9f6ba",
  "unsorted, same-start, odd whitespace \u00b7 text": "b1a0a7ef0c296519",
  "unsorted, same-start, odd whitespace \u00b7 srt": "48b1319b35dce117",
  "unsorted, same-start, odd whitespace \u00b7 vtt": "d2f6de39c154ec30",
  "unsorted, same-start, odd whitespace \u00b7 md": "3820f0c5ab53e439",
  "unsorted, same-start, odd whitespace \u00b7 timestamped text": "f11b217de1181e11",
};

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

function renderAll(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of renderCorpus()) {
    for (const format of FORMATS)
      out[`${entry.name} · ${format}`] = digest(renderTranscript(format, entry.segments, entry.meta).content);
    out[`${entry.name} · timestamped text`] = digest(renderTimestampedText(entry.segments));
  }
  return out;
}

describe("renderers after the speed work", () => {
  it("give byte for byte the output recorded before it, on real captions and on every writer path", () => {
    expect(renderAll()).toEqual(RECORDED);
  }, 120_000);

  it("give the same output again when renders reuse each other's buffers in another order", () => {
    const corpus = renderCorpus().reverse();
    for (const entry of corpus) {
      for (const format of [...FORMATS].reverse()) {
        expect(
          `${entry.name} · ${format} ${digest(renderTranscript(format, entry.segments, entry.meta).content)}`,
        ).toBe(`${entry.name} · ${format} ${RECORDED[`${entry.name} · ${format}`]}`);
      }
    }
  }, 120_000);

  it("print the same text, SRT, WebVTT and Markdown for the real files with their word times as without", () => {
    for (const f of REAL_CAPTION_FILES.filter((x) => x.kind === "auto")) {
      const timed = captionSegments(parseCaptions(readCaptionFile(f.file), f.format), "auto");
      expect(timed.some((s) => s.words)).toBe(true);
      const plain = timed.map(({ start, end, text }) => ({ start, end, text }));
      for (const format of FORMATS.filter((x) => x !== "json")) {
        expect(renderTranscript(format, timed, SAMPLE_META).content, `${f.file} · ${format}`).toBe(
          renderTranscript(format, plain, SAMPLE_META).content,
        );
      }
      expect(renderTimestampedText(timed)).toBe(renderTimestampedText(plain));
    }
  });
});
