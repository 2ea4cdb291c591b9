import { ApiError } from "@/lib/http/errors";

// The one way request bodies are read: chunk by chunk from the stream, counting bytes, and stopping
// (cancelling the stream) as soon as more than the limit has arrived. `request.text()` would buffer a
// chunked body of any size before a size check could run; a declared Content-Length over the limit is
// refused before the first byte is read.

export interface BodyLimit {
  maxBytes: number;
  /** The error thrown when the body is (or is declared to be) larger than maxBytes; usually a 413. */
  tooLarge: () => Error;
  /** The error thrown when the client breaks off mid-body. */
  interrupted?: () => Error;
}

const interruptedDefault = () =>
  new ApiError("body_interrupted", "The request body ended early. Send the request again.");

/** Feeds each chunk to `onChunk` in order; returns the number of bytes read. */
export async function consumeBody(
  request: Request,
  limit: BodyLimit,
  onChunk: (bytes: Uint8Array) => void | Promise<void>,
): Promise<number> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit.maxBytes) throw limit.tooLarge();
  if (!request.body) return 0;
  const reader = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        throw (limit.interrupted ?? interruptedDefault)();
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limit.maxBytes) throw limit.tooLarge();
      await onChunk(chunk.value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  return size;
}

/** The whole body as bytes, never more than limit.maxBytes of them held. */
export async function readBodyBytes(request: Request, limit: BodyLimit): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const size = await consumeBody(request, limit, (bytes) => {
    chunks.push(bytes);
  });
  return Buffer.concat(chunks, size);
}
