import { NextRequest } from "next/server";

// The longest time the event loop was held while `run` went on: a 1 ms interval notes the gap between its
// ticks; a tick that comes late by N ms means nothing else could run for N ms (timers, sockets, /health).
export async function worstHold(run: () => unknown): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const tick = () => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  };
  const timer = setInterval(tick, 1);
  try {
    await run();
  } finally {
    tick();
    clearInterval(timer);
  }
  return worst;
}

// What the event-loop benches share (event-loop.ts and the two it runs besides its own endpoints).
export const ORIGIN = "http://localhost:3000";

export type Handler = (request: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface Measured {
  label: string;
  worstMs: number;
  worstBody: string;
  statuses: string;
}

/**
 * Runs a measurement `runs` times and keeps its lowest figure: what the work itself holds is there every
 * time, while a stall of a busy machine (another process on the core) comes and goes.
 */
export async function lowestOf(runs: number, measure: () => Promise<number>): Promise<number> {
  let lowest = Infinity;
  for (let run = 0; run < runs; run++) lowest = Math.min(lowest, await measure());
  return lowest;
}

/** How many times each request and document is measured (the lowest is kept). */
export const RUNS = 2;

/**
 * Calls `handler` with each request (built before its clock starts, `runs` times: see lowestOf); the worst
 * hold over them.
 */
export async function measureRequests(
  label: string,
  handler: Handler,
  requests: { name: string; build: () => NextRequest; params?: Record<string, string> }[],
  runs = RUNS,
): Promise<Measured> {
  let worst = { ms: 0, body: "" };
  const statuses = new Map<number, number>();
  for (const { name, build, params } of requests) {
    let status = 0;
    const ms = await lowestOf(runs, async () => {
      const request = build();
      return worstHold(async () => {
        const response = await handler(request, { params: Promise.resolve(params ?? {}) });
        await response.arrayBuffer();
        status = response.status;
      });
    });
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (ms > worst.ms) worst = { ms, body: name };
  }
  const codes = [...statuses].map(([s, n]) => `${n}×${s}`).join(" ");
  console.log(`  ${label.padEnd(48)} ${worst.ms.toFixed(1).padStart(8)} ms  (${worst.body}; ${codes})`);
  return { label, worstMs: worst.ms, worstBody: worst.body, statuses: codes };
}

export function request(path: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
  return new NextRequest(new URL(path, ORIGIN), init);
}
