import { Worker } from "node:worker_threads";
import { sourceThread } from "./source-thread";

// The one way untrusted documents are parsed off the event loop (feeds: lib/podcasts/parse-off-thread.ts,
// caption tracks: lib/captions/parse-off-thread.ts): each parse gets a fresh worker thread (lib/app/parse-worker.ts)
// with a memory limit (resourceLimits: a thread over it is stopped, the process is not) and a deadline (the
// thread is terminated), and at most `threads` parses run at once in the process; the others wait their
// turn. A document that takes seconds to read delays only itself.

export interface OffThreadSettings {
  /** Parses at once in this process. */
  threads: number;
  /** Deadline for one parse. */
  timeoutMs: number;
  /** Heap limit of one parse's thread, in MB. */
  memoryMb: number;
}

let running = 0;
const waiting: (() => void)[] = [];

async function turn(threads: number): Promise<() => void> {
  if (running >= threads) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    waiting.shift()?.();
  };
}

/**
 * `bytes` on an ArrayBuffer of its own, to be moved to the thread (transferList) rather than copied: copying a
 * large document into workerData holds the event loop for as long as the copy takes. A view on a larger or shared
 * buffer (Node's pool of small Buffers) is copied first, so moving it detaches nothing else. The caller's
 * `bytes` must not be used afterwards.
 */
export function movable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const own =
    bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return own ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

// The thread's entry is a composition root (it hands each job to its domain), so it lives in lib/app; this runner
// names its file for the thread to load and imports nothing of it. The literal is repeated in the Worker call below,
// where Turbopack must see it to bundle the entry.
const WORKER_ENTRY = "../app/parse-worker.ts";

async function spawn(job: unknown, settings: OffThreadSettings, transfer: readonly ArrayBuffer[]): Promise<Worker> {
  const options = {
    workerData: job,
    transferList: [...transfer],
    resourceLimits: {
      maxOldGenerationSizeMb: settings.memoryMb,
      maxYoungGenerationSizeMb: Math.min(64, Math.max(8, settings.memoryMb / 8)),
      stackSizeMb: 4,
    },
    stdout: false,
    stderr: false,
  };
  // NEXT_RUNTIME is Next.js's build-time constant ("nodejs" in server bundles, as in instrumentation.ts), not a
  // setting. In the built app, Turbopack bundles the entry below as a worker chunk of its own. Elsewhere the
  // code runs from its TypeScript sources (tests, and tsx scripts such as the job worker): see source-thread.ts.
  if (process.env.NEXT_RUNTIME !== "nodejs") return sourceThread(new URL(WORKER_ENTRY, import.meta.url), options);
  return new Worker(new URL("../app/parse-worker.ts", import.meta.url), options);
}

/**
 * A thread on `job` that lives on (lib/app/parse-worker.ts knows it by its `kind`): its caller talks to it by
 * messages and terminates it. With a heap limit as a parse's, not a deadline, nor a turn among the parses.
 */
export function startThread(job: { kind: string }, memoryMb: number): Promise<Worker> {
  return spawn(job, { threads: 1, timeoutMs: 0, memoryMb }, []);
}

/**
 * `job` (a message lib/app/parse-worker.ts knows by its `kind`) → the worker's answer. Over the deadline or the memory
 * limit: `tooMuch()` is thrown. `transfer`: the buffers of the job's bytes (see movable), moved, not copied.
 */
export async function runOffThread<Outcome>(
  job: { kind: string },
  settings: OffThreadSettings,
  tooMuch: () => Error,
  transfer: readonly ArrayBuffer[] = [],
): Promise<Outcome> {
  const release = await turn(settings.threads);
  try {
    const worker = await spawn(job, settings, transfer);
    return await new Promise<Outcome>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
        void worker.terminate();
      };
      const timer = setTimeout(() => settle(() => reject(tooMuch())), settings.timeoutMs);
      worker.once("message", (message: Outcome) => settle(() => resolve(message)));
      worker.once("error", (error: Error & { code?: string }) =>
        settle(() => reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? tooMuch() : error)),
      );
      worker.once("exit", (code) =>
        settle(() => reject(new Error(`The parser thread stopped (exit code ${code}) without an answer.`))),
      );
    });
  } finally {
    release();
  }
}
