// How fast this machine's cores are, as one figure printed with `npm test`'s table: the same suite took twice as
// long on one 2-core machine as on another (the CPU seconds of its steps, not only their wall), so a step's time
// beside its budget says little until the machine's own speed is known.
//
// The reference work is fixed and single-threaded, and close to what the suites do: JavaScript building, sorting
// and serialising objects (no native crypto or compression, whose speed follows other parts of the chip). The
// fastest of a few rounds is kept: a round that something else interrupted only ever reads slower.

const ITEMS = 50_000;
const ROUNDS = 5;

function referenceWork(): number {
  // xorshift32 with a fixed seed: the same numbers, hence the same work, on every machine.
  let state = 2463534242;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const rows = Array.from({ length: ITEMS }, (_, i) => ({ id: `p${i}`, score: next(), words: [i % 97, i % 89] }));
  rows.sort((a, b) => a.score - b.score);
  const parsed = JSON.parse(JSON.stringify(rows)) as typeof rows;
  return parsed.reduce((sum, row) => sum + row.words[0]!, 0);
}

/** Milliseconds the fastest of a few rounds of the reference work took on one core of this machine. */
export function referenceWorkMs(): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    referenceWork();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return Math.round(fastest);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`${referenceWorkMs()} ms`);
