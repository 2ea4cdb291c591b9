import { Zip, ZipDeflate } from "fflate";

/** One file of a zip: its name (a path inside the archive), its text, and its modification time. */
export interface ZipEntry {
  name: string;
  content: string;
  modified: Date;
}

/**
 * A zip of `entries` as a stream that is built as it is read: the next entry is asked for, rendered and compressed
 * only when the reader wants more bytes, so a slow reader holds one entry in memory, never the archive. A failure
 * while building (the database gone) errors the stream, which a client sees as a cut-off download; cancelling it
 * (the client went away) stops reading entries.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>): ReadableStream<Uint8Array> {
  const iterator = entries[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let ready: Uint8Array[] = [];
  let failure: Error | null = null;
  let finished = false;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else ready.push(chunk);
    if (final) finished = true;
  });
  let ended = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (ready.length === 0 && !ended) {
          const next = await iterator.next();
          if (next.done) {
            zip.end();
            ended = true;
            break;
          }
          const file = new ZipDeflate(next.value.name, { level: 6 });
          file.mtime = zipTime(next.value.modified);
          zip.add(file);
          file.push(encoder.encode(next.value.content), true);
        }
        if (failure) throw failure;
        const chunks = ready;
        ready = [];
        for (const chunk of chunks) controller.enqueue(chunk);
        if (ended && finished) controller.close();
      },
      async cancel() {
        zip.terminate();
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

const ZIP_FIRST = new Date(1980, 0, 1, 0, 0, 2).getTime();
const ZIP_LAST = new Date(2099, 11, 31, 23, 59, 58).getTime();

/** A time a zip can hold: its MS-DOS field holds 1980 to 2099 only. */
function zipTime(date: Date): Date {
  const ms = date.getTime();
  return new Date(Number.isFinite(ms) ? Math.min(Math.max(ms, ZIP_FIRST), ZIP_LAST) : ZIP_FIRST);
}
