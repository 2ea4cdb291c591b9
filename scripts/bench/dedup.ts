// Parsing and de-duplication of auto captions: on the fake YouTube's auto-caption fixtures
// (test/fakes/youtube/fixtures: hand-made to YouTube's real formats) and on real files from public
// repositories (test/fixtures/captions, README there), the largest of them timed.
// Run directly: `npx tsx scripts/bench/dedup.ts`; the main bench script can import benchDedup().
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

import { type Cue, dedupe, parseCaptions, parseJson3, parseVtt, repeatedNgramCount } from "../../lib/captions/parse";
import {
  LARGEST_AUTO_FILE,
  REAL_CAPTION_FILES,
  readCaptionFile,
  referenceTimedWords,
  referenceWords,
  words as wordsOf,
} from "../../test/fixtures/captions";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";

const FIXTURES = fileURLToPath(new URL("../../test/fakes/youtube/fixtures/timedtext/", import.meta.url));
const RUNS = 20;
/** Copies of the ~2-minute rolling track laid end to end: about ten hours. */
const LONG_COPIES = 316;

function load(ext: "json3" | "vtt"): string {
  return readFileSync(`${FIXTURES}${FAKE_IDS.captioned}.en.asr.${ext}`, "utf8");
}

function words(segments: ReadonlyArray<{ text: string }>): number {
  return segments.reduce((n, s) => n + s.text.split(" ").filter((w) => w !== "").length, 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Repeated 4-grams across adjacent segments, segment and word counts, before and after `dedupe`, for
 * the auto-caption track as json3 (what the provider fetches: events overlap in time, text does not
 * repeat) and as WebVTT (the rolling form: every line shown two or three times). "before" counts the
 * parser's cues with text (newline-only events left out). Plus the median time to de-duplicate a
 * ten-hour rolling track.
 */
export async function benchDedup(): Promise<Record<string, number>> {
  const results: Record<string, number> = {};
  for (const ext of ["json3", "vtt"] as const) {
    const cues: Cue[] = ext === "json3" ? parseJson3(load(ext)) : parseVtt(load(ext));
    const withText = cues.filter((c) => c.text !== "");
    const after = dedupe(cues);
    results[`${ext}_events`] = cues.length;
    results[`${ext}_segments_before`] = withText.length;
    results[`${ext}_repeated_4grams_before`] = repeatedNgramCount(withText, 4);
    results[`${ext}_words_before`] = words(withText);
    results[`${ext}_segments_after`] = after.length;
    results[`${ext}_repeated_4grams_after`] = repeatedNgramCount(after, 4);
    results[`${ext}_words_after`] = words(after);
  }

  const one = parseVtt(load("vtt"));
  const span = Math.ceil(Math.max(...one.map((c) => c.end)) + 1);
  const long: Cue[] = [];
  for (let i = 0; i < LONG_COPIES; i++)
    for (const c of one) long.push({ ...c, start: c.start + i * span, end: c.end + i * span });
  const times: number[] = [];
  let sink = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const t0 = performance.now();
    sink += dedupe(long).length;
    if (i >= 3) times.push(performance.now() - t0);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (sink < 0) console.log(sink);
  results.vtt_10h_cues = long.length;
  results.vtt_10h_dedupe_ms = Math.round(median(times) * 100) / 100;
  Object.assign(results, await benchRealFiles());
  return results;
}

/** Median milliseconds of `run` over RUNS runs after 3 warm-up runs. */
async function timeMs(run: () => number): Promise<number> {
  const times: number[] = [];
  let sink = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const t0 = performance.now();
    sink += run();
    if (i >= 3) times.push(performance.now() - t0);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (sink < 0) console.log(sink);
  return Math.round(median(times) * 100) / 100;
}

/**
 * Real auto-caption files: words the file says (read without the parser) vs words kept, words lost,
 * and for the largest file the parse and de-duplication times.
 */
async function benchRealFiles(): Promise<Record<string, number>> {
  const results: Record<string, number> = {};
  for (const f of REAL_CAPTION_FILES.filter((x) => x.kind === "auto")) {
    const name = f.file.replace(/\.(vtt|json3)$/, "").replace(/[^a-z0-9]+/gi, "_");
    const body = readCaptionFile(f.file);
    const cues = parseCaptions(body, f.format);
    const out = dedupe(cues);
    const reference = referenceWords(f, body);
    const got = wordsOf(out.map((s) => s.text).join(" "));
    results[`real_${name}_words_in_file`] = reference.length;
    results[`real_${name}_words_before_dedupe`] = wordsOf(cues.map((c) => c.text).join(" ")).length;
    results[`real_${name}_words_after_dedupe`] = got.length;
    results[`real_${name}_words_lost`] = reference.filter((w, i) => got[i] !== w).length;
    // Word times: the words the file times itself, and those that come out with the same text and start.
    const timed = referenceTimedWords(f, body);
    const kept = out.flatMap((s) => s.words ?? []);
    results[`real_${name}_timed_words_in_file`] = timed.length;
    results[`real_${name}_timed_words_out`] = kept.length;
    results[`real_${name}_timed_words_same`] = timed.filter(
      (w, i) => kept[i]?.text === w.text && kept[i]?.start === w.start,
    ).length;
  }
  const largest = REAL_CAPTION_FILES.find((x) => x.file === LARGEST_AUTO_FILE);
  if (largest) {
    const body = readCaptionFile(largest.file);
    const cues = parseCaptions(body, largest.format);
    results.largest_real_auto_bytes = Buffer.byteLength(body);
    results.largest_real_auto_cues = cues.length;
    results.largest_real_auto_parse_ms = await timeMs(() => parseCaptions(body, largest.format).length);
    results.largest_real_auto_dedupe_ms = await timeMs(() => dedupe(cues).length);
  }
  const json3 = REAL_CAPTION_FILES.find((x) => x.format === "json3" && x.kind === "auto");
  if (json3) {
    const body = readCaptionFile(json3.file);
    const cues = parseCaptions(body, "json3");
    results.real_json3_bytes = Buffer.byteLength(body);
    results.real_json3_parse_ms = await timeMs(() => parseCaptions(body, "json3").length);
    results.real_json3_dedupe_ms = await timeMs(() => dedupe(cues).length);
  }
  return results;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const results = await benchDedup();
  console.log("Auto-caption parsing and de-duplication (fake YouTube fixture; real files from public repositories)");
  for (const [key, value] of Object.entries(results)) console.log(`${key.padEnd(28)} ${value}`);
}
