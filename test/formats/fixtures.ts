import type { Segment, TranscriptMeta } from "@/lib/formats/types";

/** Sample metadata for tests and benchmarks. */
export const SAMPLE_META: TranscriptMeta = {
  title: "Sample talk",
  sourceUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  platform: "youtube",
  videoId: "dQw4w9WgXcQ",
  lang: "en",
};

const WORDS = [
  "the",
  "transcript",
  "of",
  "a",
  "long",
  "talk",
  "about",
  "video",
  "captions",
  "and",
  "timing",
  "we",
  "measure",
  "every",
  "cue",
  "carefully",
  "so",
  "that",
  "players",
  "show",
  "text",
  "on",
  "time",
  "with",
  "naïve",
  "café",
  "it's",
  "don't",
  "well",
  "really",
  "twenty",
  "percent",
  "people",
];
/** Rarer tokens that exercise escaping in every format (about one segment in 25 gets one). */
const SPECIAL = [
  "[Music]",
  "R&D",
  "<tags>",
  "a*b",
  "snake_case",
  "C#",
  "x > y",
  "--> arrow",
  "\\back",
  '"quoted"',
  "日本語",
  "emoji 🎉",
];
const ENDINGS = ["", "", "", ",", ".", "?", "!", "…"];

/**
 * A deterministic, realistic transcript: `count` consecutive ~1 s segments (36,000 ≈ 10 hours)
 * with varied words, sentence punctuation, Markdown/HTML/JSON-significant tokens and non-Latin-1
 * text in ~4% of segments (as in real captions: "[Music]", "R&D"...), an occasional pause, and ends that slightly overlap the next start (as ASR output often does).
 */
export function makeLongTranscript(count = 36_000): Segment[] {
  let seed = 0x2545f491;
  const rand = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x1_0000_0000;
  };
  const segments: Segment[] = new Array(count);
  let t = 0;
  for (let i = 0; i < count; i++) {
    const nWords = 3 + Math.floor(rand() * 6);
    const words: string[] = new Array(nWords);
    for (let w = 0; w < nWords; w++) words[w] = WORDS[Math.floor(rand() * WORDS.length)];
    if (rand() < 0.04) words[Math.floor(rand() * nWords)] = SPECIAL[Math.floor(rand() * SPECIAL.length)];
    const text = words.join(" ") + ENDINGS[Math.floor(rand() * ENDINGS.length)];
    const start = t;
    const duration = 0.8 + rand() * 0.4;
    const overlap = rand() < 0.2 ? 0.15 : 0;
    segments[i] = { start, end: start + duration + overlap, text };
    t = start + duration + (rand() < 0.01 ? 3 : 0);
  }
  return segments;
}
