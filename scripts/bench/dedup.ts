// De-duplication of YouTube auto captions, on the fake YouTube's auto-caption fixtures
// (test/fakes/youtube/fixtures: hand-made to YouTube's real formats, not recorded).
// Run directly: `npx tsx scripts/bench/dedup.ts`; the main bench script can import benchDedup().
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

import { dedupe, repeatedNgramCount } from "../../lib/captions/youtube/dedup";
import { type Cue, parseJson3, parseVtt } from "../../lib/captions/youtube/timedtext";
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
  for (let i = 0; i < LONG_COPIES; i++) for (const c of one) long.push({ ...c, start: c.start + i * span, end: c.end + i * span });
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
  return results;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const results = await benchDedup();
  console.log("Auto-caption de-duplication (fake YouTube fixture, hand-made to the real formats)");
  for (const [key, value] of Object.entries(results)) console.log(`${key.padEnd(28)} ${value}`);
}
