import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { AUTH_FORM_MAX_BYTES, withBoundedForm } from "./form-body";

const URL_ = "http://localhost:3000/api/auth/callback/dev-login";
const FORM = "application/x-www-form-urlencoded";

/** The wrapped handler, and what it was given. */
function wrapped() {
  const seen: { body: string; type: string | null; url: string }[] = [];
  const handler = withBoundedForm(async (request) => {
    seen.push({ body: await request.text(), type: request.headers.get("content-type"), url: request.nextUrl.href });
    return new Response("ok");
  });
  return { handler, seen };
}

describe("withBoundedForm", () => {
  it("hands Auth.js a form within the bound as it came", async () => {
    const { handler, seen } = wrapped();
    const form = `csrfToken=abc&email=${encodeURIComponent("a@example.test")}&callbackUrl=%2Fdashboard`;
    const response = await handler(
      new NextRequest(URL_, { method: "POST", headers: { "content-type": FORM }, body: form }),
    );
    expect(await response.text()).toBe("ok");
    expect(seen).toEqual([{ body: form, type: FORM, url: URL_ }]);
  });

  it("answers 413 payload_too_large past the bound, declared or streamed, without calling Auth.js", async () => {
    const { handler, seen } = wrapped();
    const declared = await handler(
      new NextRequest(URL_, {
        method: "POST",
        headers: { "content-type": FORM },
        body: `email=${"a".repeat(AUTH_FORM_MAX_BYTES)}`,
      }),
    );
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: "payload_too_large" });

    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode("k=&".repeat(1024)));
      },
    });
    const streamed = await handler(
      new NextRequest(URL_, {
        method: "POST",
        headers: { "content-type": FORM },
        body: endless,
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]),
    );
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(AUTH_FORM_MAX_BYTES / 3072 + 3);
    expect(seen).toEqual([]);
  });
});
