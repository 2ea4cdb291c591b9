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
