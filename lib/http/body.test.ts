import { describe, expect, it } from "vitest";
import { consumeBody, readBodyBytes } from "@/lib/http/body";
import { errors } from "@/lib/http/errors";

const limit = { maxBytes: 10, tooLarge: () => errors.payloadTooLarge("too large") };

function streamed(chunks: (Uint8Array | Error)[]) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks[pulled++];
        if (next === undefined) controller.close();
        else if (next instanceof Error) controller.error(next);
        else controller.enqueue(next);
      },
    },
    { highWaterMark: 0 },
  ); // pulled only when read
  const request = new Request("http://localhost/x", { method: "POST", body, duplex: "half" } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("reading a body within a limit", () => {
  it("reads all of a body up to the limit, in order", async () => {
    const { request } = streamed([new TextEncoder().encode("hello "), new TextEncoder().encode("you!")]);
    expect((await readBodyBytes(request, limit)).toString()).toBe("hello you!");
  });

  it("refuses a declared Content-Length over the limit before reading a byte", async () => {
    const { request, pulled } = streamed([new Uint8Array(5)]);
    // As Next.js hands it over from Node (undici's Request drops a Content-Length set by hand).
    const declared = { headers: new Headers({ "content-length": "11" }), body: request.body } as Request;
    await expect(readBodyBytes(declared, limit)).rejects.toMatchObject({ status: 413, code: "payload_too_large" });
    expect(pulled()).toBe(0);
  });

  it("stops at the chunk that crosses the limit, without reading the rest", async () => {
    const { request, pulled } = streamed([new Uint8Array(6), new Uint8Array(6), new Uint8Array(6), new Uint8Array(6)]);
    const seen: number[] = [];
    await expect(consumeBody(request, limit, (bytes) => void seen.push(bytes.byteLength))).rejects.toMatchObject({
      status: 413,
    });
    expect(seen).toEqual([6]);
    expect(pulled()).toBeLessThanOrEqual(3);
  });

  it("a body that breaks off is the caller's interrupted error", async () => {
    const { request } = streamed([new Uint8Array(2), new Error("socket hang up")]);
    await expect(readBodyBytes(request, limit)).rejects.toMatchObject({ status: 400, code: "body_interrupted" });
    const again = streamed([new Error("reset")]);
    const custom = { ...limit, interrupted: () => errors.conflict("upload_in_progress", "gone") };
    await expect(readBodyBytes(again.request, custom)).rejects.toMatchObject({
      status: 409,
      code: "upload_in_progress",
    });
  });
});
