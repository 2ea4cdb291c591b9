import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/app-db";
import { captureLogs } from "@/test/capture-logs";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";

// A client that breaks off mid-body at the token endpoint, over real HTTP: its doing, so a warning without a
// stack in the log (it was an error with one), and nothing logged at error level.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let server: ServedRoutes;

beforeAll(async () => {
  server = await serveRoutes({ "/oauth/token": { POST: lazy(() => import("@/app/oauth/token/route"), "POST") } });
  process.env.APP_URL = server.url;
  ctx = await useTestDatabase();
  await import("@/app/oauth/token/route");
});
afterAll(async () => {
  await server?.close();
  await ctx?.teardown();
});

/** Sends the head and `part` of a body declared longer, then closes the connection; resolves once it is closed. */
function cutOff(path: string, part: string): Promise<void> {
  const url = new URL(server.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n${part}`,
      );
      setTimeout(() => socket.destroy(), 100);
    });
    socket.on("close", () => resolve());
  });
}

describe("a request body that ends early", () => {
  it("is logged as one warning without a stack, never as an error", async () => {
    const logs = captureLogs();
    try {
      await cutOff("/oauth/token", "grant_type=authorization_code&code=vac_");
      for (let i = 0; i < 200 && logs.lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      logs.restore();
    }
    expect(logs.lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(logs.lines).toEqual([
      expect.objectContaining({ level: 40, operation: "POST /oauth/token", code: "body_interrupted" }),
    ]);
    expect(JSON.stringify(logs.lines)).not.toContain("stack");
  });
});
