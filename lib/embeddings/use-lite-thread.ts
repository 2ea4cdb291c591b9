// Universal Sentence Encoder lite kept loaded in one thread of this process (use-lite-serve.ts), for search by
// meaning's second stage: the background upgrade's batches and a query's few words. The event loop never runs the
// model. One request at a time; a query goes ahead of every waiting batch, so it waits at most for the batch in
// hand. The thread is ended when nothing has been asked of it for a while, and its memory (about 300 MB) with it;
// the next request starts it again (the model read in a few seconds).
import type { Worker } from "node:worker_threads";
import { startThread } from "@/lib/process/off-thread";
import type { UseLiteReply, UseLiteRequest, UseLiteServeJob } from "./use-lite-serve";

/** Idle for this long, the thread is ended. */
export const USE_LITE_IDLE_MS = 5 * 60_000;
/** The thread's heap (the model's weights live in WebAssembly memory, outside it). */
const HEAP_MB = 256;

interface Pending {
  texts: string[];
  urgent: boolean;
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

export class EncoderThread {
  private worker: Promise<Worker> | null = null;
  private readonly queue: Pending[] = [];
  private inFlight: { id: number; pending: Pending } | null = null;
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly folder: string,
    private readonly idleMs = USE_LITE_IDLE_MS,
  ) {}

  /** Whether the thread is running now (its memory held). */
  get started(): boolean {
    return this.worker !== null;
  }

  /** Each text's unit vector; `urgent` (a query's) before every waiting request that is not. */
  embed(texts: string[], urgent = false): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const pending = { texts, urgent, resolve, reject };
      if (urgent) {
        const at = this.queue.findIndex((p) => !p.urgent);
        this.queue.splice(at === -1 ? this.queue.length : at, 0, pending);
      } else this.queue.push(pending);
      this.pump();
    });
  }

  /** Ends the thread now (what it was asked and has not answered fails). */
  release(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker;
    this.worker = null;
    this.inFlight?.pending.reject(new Error("the sentence encoder's thread was released"));
    this.inFlight = null;
    void worker?.then((w) => w.terminate()).catch(() => {});
  }

  private start(): Promise<Worker> {
    const job: UseLiteServeJob = { kind: "use-lite-serve", folder: this.folder };
    const started = startThread(job, HEAP_MB).then((worker) => {
      worker.on("message", (reply: UseLiteReply) => this.answered(reply));
      const fail = (error: Error) => {
        if (this.worker !== started) return;
        this.worker = null;
        this.inFlight?.pending.reject(error);
        this.inFlight = null;
        this.pump();
      };
      worker.on("error", fail);
      worker.on("exit", (code) => fail(new Error(`the sentence encoder's thread stopped (exit code ${code})`)));
      return worker;
    });
    started.catch(() => {
      if (this.worker === started) this.worker = null;
    });
    return started;
  }

  private pump(): void {
    if (this.inFlight) return;
    const pending = this.queue.shift();
    if (!pending) {
      if (this.worker) {
        void this.worker.then(
          (w) => w.unref(),
          () => {},
        );
        this.idle ??= setTimeout(() => this.release(), this.idleMs).unref();
      }
      return;
    }
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const id = this.nextId++;
    this.inFlight = { id, pending };
    this.worker ??= this.start();
    this.worker.then(
      (worker) => {
        worker.ref();
        const request: UseLiteRequest = { id, texts: pending.texts };
        worker.postMessage(request);
      },
      (error: unknown) => {
        if (this.inFlight?.id !== id) return;
        this.inFlight = null;
        pending.reject(error instanceof Error ? error : new Error(String(error)));
        this.pump();
      },
    );
  }

  private answered(reply: UseLiteReply): void {
    if (this.inFlight?.id !== reply.id) return;
    const { pending } = this.inFlight;
    this.inFlight = null;
    if (reply.ok)
      pending.resolve(pending.texts.map((_, i) => reply.vectors.subarray(i * reply.dims, (i + 1) * reply.dims)));
    else pending.reject(new Error(`the sentence encoder failed: ${reply.message}`));
    this.pump();
  }
}

const threads = new Map<string, EncoderThread>();

/** The one thread of this process for the encoder in `folder`. */
export function encoderThread(folder: string): EncoderThread {
  let thread = threads.get(folder);
  if (!thread) threads.set(folder, (thread = new EncoderThread(folder)));
  return thread;
}
