/**
 * Transcripts every renderer is checked on byte for byte against the output recorded before the
 * renderers were restructured for speed (lib/formats/renderers-unchanged.test.ts): the real caption
 * files, the 10-hour bench transcript, and inputs that take each of the writer's paths (Latin-1 only,
 * Latin-1 that turns wide near the end, unsorted and same-start cues, odd whitespace, lone surrogates).
 */
import { parseCaptions } from "@/lib/captions/parse";
import { SAMPLE_META, makeLongTranscript } from "@/test/formats/fixtures";
import type { Segment, TranscriptMeta } from "@/lib/formats/types";
import { REAL_CAPTION_FILES, readCaptionFile } from "@/test/fixtures/captions";

export interface CorpusEntry {
  name: string;
  segments: Segment[];
  meta: TranscriptMeta;
}

const CHAPTERED: TranscriptMeta = {
  ...SAMPLE_META,
  title: "Ünïcode & <title> — “quoted”",
  chapters: [
    { start: 0, title: "Intro" },
    { start: 95, title: "Ça va — *next*" },
    { start: 3000, title: "日本語" },
  ],
};

function latin1Transcript(count: number, wideAt = -1): Segment[] {
  const words = [
    "café",
    "naïve",
    "R&D",
    "<b>",
    "x --> y",
    "a_b",
    "\\",
    '"q"',
    "£5",
    "Straße",
    "  spaced\tout\n",
    "¿qué?",
  ];
  return Array.from({ length: count }, (_, i) => ({
    start: i * 1.25,
    end: i * 1.25 + (i % 7 === 0 ? 0 : 1.4),
    text:
      i === wideAt
        ? "now “wide” …"
        : `${words[i % words.length]} ${words[(i * 5) % words.length]} ${i}${i % 9 === 0 ? "." : ""}`,
  }));
}

function messyTranscript(): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < 400; i++) {
    const start = ((i * 37) % 400) * 0.75; // unsorted
    out.push({
      start,
      end: start + (i % 5) * 0.3,
      text: i % 11 === 0 ? " \u00a0 " : `cue ${i}\u2028line\u0000 two\ud800 end`,
    });
    if (i % 13 === 0) out.push({ start, end: start + 2, text: "same start" });
  }
  out.push(
    { start: Number.NaN, end: 5, text: "no start" },
    { start: 1e9, end: Number.POSITIVE_INFINITY, text: "late" },
  );
  return out;
}

export function renderCorpus(): CorpusEntry[] {
  return [
    ...REAL_CAPTION_FILES.map((f) => ({
      name: f.file,
      // Without their word times: the recorded renderings predate them, and every format but
      // JSON ignores them anyway (lib/formats/json.test.ts checks JSON's words).
      segments: parseCaptions(readCaptionFile(f.file), f.format).map(({ start, end, text }) => ({ start, end, text })),
      meta: SAMPLE_META,
    })),
    { name: "10-hour bench transcript", segments: makeLongTranscript(36_000), meta: SAMPLE_META },
    { name: "Latin-1 only", segments: latin1Transcript(5000), meta: { ...SAMPLE_META, title: "Café" } },
    { name: "Latin-1, wide near the end", segments: latin1Transcript(5000, 4990), meta: CHAPTERED },
    {
      name: "unsorted, same-start, odd whitespace",
      segments: messyTranscript(),
      meta: { ...CHAPTERED, platform: "vimeo", videoId: "123" },
    },
  ];
}
