import { handRequest } from "@/test/request";
import type { Deliver } from "@/test/fakes/websub/hub";

/**
 * The route handlers the follows suites call: /v1/follows and the WebSub callback. Imported on call, after the
 * suite's world has set the settings.
 */
export async function followRoutes() {
  const top = await import("@/app/v1/follows/route");
  const one = await import("@/app/v1/follows/[id]/route");
  const check = await import("@/app/v1/follows/[id]/check/route");
  const websub = await import("@/app/v1/webhooks/websub/[token]/route");
  return {
    create: top.POST,
    list: top.GET,
    get: one.GET,
    patch: one.PATCH,
    remove: one.DELETE,
    check: check.POST,
    verify: websub.GET,
    push: websub.POST,
  };
}

export type FollowRoutes = Awaited<ReturnType<typeof followRoutes>>;

/** A fake hub's `deliver`: its calls to /v1/webhooks/websub/{token} handed to that route's handlers here. */
export const deliverToCallback: Deliver = async (request) => {
  const { GET, POST } = await import("@/app/v1/webhooks/websub/[token]/route");
  const token = decodeURIComponent(new URL(request.url).pathname.split("/").at(-1)!);
  return handRequest(request.method === "GET" ? GET : POST, request, { token });
};

/**
 * Reads until `ok` holds, every 20 ms; throws with `what` and the last value after `ms`: a guard against a hang, not
 * a timing (beside the other suites on two cores, a followed show's two episodes took over 30 s to be published).
 */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  ms = 120_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
