// Benchmarks the transcript renderers on a 10-hour (36,000-segment) transcript.
// Run directly: `npx tsx scripts/bench/formats.ts`; the main bench script imports benchFormats().
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { SAMPLE_META, makeLongTranscript } from "../../test/formats/fixtures";
import { FORMATS, renderTranscript } from "../../lib/formats/index";

const SEGMENTS = 36_000;
const WARMUP_RUNS = 5;
const RUNS = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Median milliseconds per format (json, text, srt, vtt, md) to render a 36,000-segment (10-hour)
 * transcript, normalization included. All formats are warmed up first, then measured round-robin
 * so that each sees the same JIT and garbage-collector conditions.
 */
export async function benchFormats(): Promise<Record<string, number>> {
  const segments = makeLongTranscript(SEGMENTS);
  const times: Record<string, number[]> = {};
  let sink = 0; // keeps the optimizer from discarding the work
  for (let i = 0; i < WARMUP_RUNS; i++) {
    for (const format of FORMATS) sink += renderTranscript(format, segments, SAMPLE_META).content.length;
  }
  for (const format of FORMATS) times[format] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const format of FORMATS) {
      const t0 = performance.now();
      sink += renderTranscript(format, segments, SAMPLE_META).content.length;
      times[format].push(performance.now() - t0);
    }
    // Let timers and I/O run between rounds instead of holding the event loop for the whole bench.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (sink < 0) console.log(sink);
  const results: Record<string, number> = {};
  for (const format of FORMATS) results[`${format}, ms (goal ≤ 8)`] = Math.round(median(times[format]) * 100) / 100;
  return results;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const results = await benchFormats();
  console.log(`Transcript rendering, ${SEGMENTS.toLocaleString("en-US")} segments, median of ${RUNS} runs`);
  console.log("format  ms");
  for (const [format, ms] of Object.entries(results)) console.log(`${format.padEnd(6)}  ${ms.toFixed(2)}`);
}
