// Real speech for the tests: espeak-ng speaking a text into a WAV file (22.05 kHz, mono, 16-bit).
// The system's espeak-ng when it is on PATH (Debian's package, which CI installs: it starts in milliseconds),
// else the same synthesiser compiled to WebAssembly, from npm (`espeak-ng`, a few seconds to load), so the
// suite needs nothing preinstalled. SPEECH_SYNTH=wasm forces the WebAssembly build (test/speech.test.ts).
import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface SpeechOptions {
  /** The text is SSML (`<speak>…<break time="2s"/>…</speak>`), espeak-ng's -m. */
  ssml?: boolean;
}

let systemEspeak: boolean | undefined;

/** Whether espeak-ng answers on PATH (looked up once per process). */
function hasSystemEspeak(): boolean {
  if (process.env.SPEECH_SYNTH === "wasm") return false;
  systemEspeak ??= spawnSync("espeak-ng", ["--version"], { stdio: "ignore" }).status === 0;
  return systemEspeak;
}

function espeakArguments(output: string, text: string, options: SpeechOptions): string[] {
  return [...(options.ssml ? ["-m"] : []), "-w", output, "--", text];
}

/** espeak-ng's command line run by the WebAssembly build, in its own in-memory file system. */
async function speakWasm(text: string, options: SpeechOptions): Promise<Buffer> {
  const { default: ESpeakNg } = await import("espeak-ng");
  const errors: string[] = [];
  const espeak = await ESpeakNg({
    arguments: espeakArguments("/speech.wav", text, options),
    print: () => undefined,
    printErr: (line) => errors.push(line),
  });
  try {
    return Buffer.from(espeak.FS.readFile("/speech.wav"));
  } catch (err) {
    throw new Error(`espeak-ng (WebAssembly) wrote no audio: ${errors.join("\n") || String(err)}`);
  }
}

/** The text spoken, as the bytes of a WAV file. */
export async function speech(text: string, options: SpeechOptions = {}): Promise<Buffer> {
  if (!hasSystemEspeak()) return speakWasm(text, options);
  const dir = await mkdtemp(path.join(os.tmpdir(), "verbatim-speech-"));
  try {
    return await readFile(await speechWav(path.join(dir, "speech.wav"), text, options));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text spoken, written to `file` as WAV; returns `file`. */
export async function speechWav(file: string, text: string, options: SpeechOptions = {}): Promise<string> {
  if (hasSystemEspeak()) {
    await run("espeak-ng", espeakArguments(file, text, options));
  } else {
    await writeFile(file, await speakWasm(text, options));
  }
  return file;
}
