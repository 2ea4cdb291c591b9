/**
 * Tone "speech" for testing chunked transcription end to end without a speech model: generated audio in
 * which word k is a tone burst at a frequency that names it, and a recogniser that hears those words in
 * whatever audio it is given (decoded with ffmpeg, bursts found by energy, frequency by zero crossings).
 * Chunks cut anywhere in the file are "transcribed" with times relative to the chunk, words cut short at
 * a chunk edge are heard too (when long enough), so stitching is tested on what was really sent.
 *
 * Word k: starts at k·PERIOD, lasts BURST seconds, frequency BASE_HZ + STEP_HZ·(k mod VOCABULARY.length),
 * text VOCABULARY[k mod VOCABULARY.length] (every 8th with a full stop, as sentence ends: the recogniser
 * gives bare words, toneText() the punctuated text, as OpenAI does).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { findExecutable } from "../../../lib/process/media-tools";

const run = promisify(execFile);

/** The ffmpeg the app itself would run (the system's, else the one npm installed). */
const ffmpegBinary = () => findExecutable("ffmpeg") ?? "ffmpeg";

export const PERIOD = 1.25;
export const BURST = 0.75;
const BASE_HZ = 400;
const STEP_HZ = 60;
const SAMPLE_RATE = 8000;
const FRAME = 80; // 10 ms at 8 kHz

export const VOCABULARY = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliett",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
  "uniform",
  "victor",
  "whiskey",
  "xray",
  "yankee",
  "zulu",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
] as const;

function textOf(k: number): string {
  const word = VOCABULARY[k % VOCABULARY.length];
  return k % 8 === 7 ? `${word}.` : word;
}

/** The full text for recognised words, punctuated like toneWords() (OpenAI's words carry no punctuation, its text does). */
export function toneText(words: ReadonlyArray<{ word: string }>): string {
  return words.map((w) => textOf(VOCABULARY.indexOf(w.word as (typeof VOCABULARY)[number]))).join(" ");
}

/** The words of a tone file of `durationSeconds`, in seconds (bursts cut by the end excluded). */
export function toneWords(durationSeconds: number): Array<{ text: string; start: number; end: number }> {
  const words = [];
  for (let k = 0; k * PERIOD + BURST <= durationSeconds; k++)
    words.push({ text: textOf(k), start: k * PERIOD, end: k * PERIOD + BURST });
  return words;
}

/**
 * Writes tone speech of `durationSeconds` to `out` (format from the extension), mono 16 kHz.
 * `bitrate` for lossy formats, e.g. "32k".
 */
export async function generateToneAudio(out: string, durationSeconds: number, bitrate = "32k"): Promise<void> {
  const n = VOCABULARY.length;
  const expr = `if(lt(mod(t,${PERIOD}),${BURST}),0.5*sin(2*PI*(${BASE_HZ}+${STEP_HZ}*mod(floor(t/${PERIOD}),${n}))*t),0)`;
  await run(ffmpegBinary(), [
    "-hide_banner",
    "-nostdin",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `aevalsrc=exprs='${expr}':s=16000:d=${durationSeconds}`,
    "-ac",
    "1",
    "-b:a",
    bitrate,
    out,
  ]);
}

/** Decodes audio (any format ffmpeg reads) to 8 kHz mono samples in [-1, 1]. */
async function decode(audio: Buffer, extension: string): Promise<Float32Array> {
  const dir = await mkdtemp(path.join(tmpdir(), "fake-asr-"));
  try {
    const file = path.join(dir, `in.${extension}`);
    await writeFile(file, audio);
    const { stdout } = await run(
      ffmpegBinary(),
      [
        "-hide_banner",
        "-nostdin",
        "-loglevel",
        "error",
        "-i",
        file,
        "-f",
        "s16le",
        "-ac",
        "1",
        "-ar",
        String(SAMPLE_RATE),
        "pipe:1",
      ],
      { encoding: "buffer", maxBuffer: 512 * 1024 * 1024 },
    );
    const samples = new Float32Array(stdout.length >> 1);
    for (let i = 0; i < samples.length; i++) samples[i] = stdout.readInt16LE(i * 2) / 32768;
    return samples;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The tone words heard in `audio`, times in seconds from its start. Bursts shorter than 80 ms (a word cut
 * off at a chunk edge) are not heard.
 */
export async function recognizeTones(
  audio: Buffer,
  extension: string,
): Promise<Array<{ word: string; start: number; end: number }>> {
  const samples = await decode(audio, extension);
  const frames = Math.floor(samples.length / FRAME);
  const loud: boolean[] = [];
  for (let f = 0; f < frames; f++) {
    let energy = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) energy += samples[i] * samples[i];
    loud.push(Math.sqrt(energy / FRAME) > 0.05);
  }
  const words: Array<{ word: string; start: number; end: number }> = [];
  for (let f = 0; f < frames;) {
    if (!loud[f]) {
      f++;
      continue;
    }
    const first = f;
    while (f < frames && loud[f]) f++;
    const last = f; // exclusive
    if (last - first < 8) continue;
    // Frequency from zero crossings, away from the burst's edges.
    const from = (first + 1) * FRAME;
    const to = (last - 1) * FRAME;
    let crossings = 0;
    for (let i = from + 1; i < to; i++) if (samples[i - 1] < 0 !== samples[i] < 0) crossings++;
    const hz = crossings / 2 / ((to - from) / SAMPLE_RATE);
    const index = Math.round((hz - BASE_HZ) / STEP_HZ);
    if (index < 0 || index >= VOCABULARY.length || Math.abs(hz - (BASE_HZ + STEP_HZ * index)) > STEP_HZ / 3) continue;
    words.push({ word: VOCABULARY[index], start: (first * FRAME) / SAMPLE_RATE, end: (last * FRAME) / SAMPLE_RATE });
  }
  return words;
}
