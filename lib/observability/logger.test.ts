import { describe, expect, it } from "vitest";
import { createLogger, maskSecrets } from "@/lib/observability/logger";
import { requestIdFrom, withLogContext } from "@/lib/observability/request-context";
import { routeLabel } from "@/lib/observability/http";

function capture(level = "debug") {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const logger = createLogger({
    level,
    destination: { write: (line: string) => (raw.push(line), lines.push(JSON.parse(line) as Record<string, unknown>)) },
  });
  return { logger, lines, raw };
}

describe("logger", () => {
  it("writes JSON lines at the configured level", () => {
    const { logger, lines } = capture("warn");
    logger.info("not written");
    logger.warn({ answer: 42 }, "written");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: "written", answer: 42 });
  });

  it("carries the request id and job id of the context it runs in", () => {
    const { logger, lines } = capture();
    withLogContext({ requestId: "req-1" }, () => withLogContext({ jobId: "job-1" }, () => logger.info("inside")));
    logger.info("outside");
    expect(lines[0]).toMatchObject({ requestId: "req-1", jobId: "job-1" });
    expect(lines[1]).not.toHaveProperty("requestId");
  });

  it("redacts authorization and cookie headers by path", () => {
    const { logger, lines } = capture();
    logger.info(
      { headers: { authorization: "Bearer anything", cookie: "authjs.session-token=abc", accept: "*/*" } },
      "headers",
    );
    expect(lines[0]!.headers).toEqual({ authorization: "[redacted]", cookie: "[redacted]", accept: "*/*" });
  });

  it("masks anything that looks like a key or token, in messages, fields and errors", () => {
    const { logger, raw } = capture();
    const secrets = [
      "vbt_7Hq2WmT9xKp4ZsV8nR3cY6bL1dF5gJ0a",
      "vat_Zx81kQm2",
      "vrt_Zx81kQm2Pp",
      "sk_test_51HfakeKey",
      "rk_live_abcdef123",
      "whsec_abcdefgh1234",
    ];
    logger.info(`key ${secrets[0]} seen`);
    logger.warn({ token: { nested: secrets[1] }, note: `refresh ${secrets[2]}` }, "fields");
    logger.error({ err: new Error(`Stripe said no to ${secrets[3]} and ${secrets[4]} with ${secrets[5]}`) }, "failed");
    const all = raw.join("");
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(all).toContain("vbt_[redacted]");
    expect(all).toContain("whsec_[redacted]");
  });

  it("leaves ordinary words with those letters alone", () => {
    expect(maskSecrets("task_queue risk_level desk_booking")).toBe("task_queue risk_level desk_booking");
  });
});

describe("request ids", () => {
  it("accepts a well-formed X-Request-Id and replaces anything else", () => {
    expect(requestIdFrom("abc-123_DEF.4")).toBe("abc-123_DEF.4");
    expect(requestIdFrom(["first-id", "second"])).toBe("first-id");
    for (const bad of ["", "a".repeat(129), "has space", "new\nline", "semi;colon", "ünï", undefined, null]) {
      const id = requestIdFrom(bad);
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestIdFrom("a".repeat(128))).toBe("a".repeat(128));
  });
});

describe("route labels", () => {
  const template = (path: string) => (/^\/v1\/jobs\/[^/]+$/.test(path) ? "/v1/jobs/{job_id}" : undefined);

  it("are the endpoint's template, a top-level folder, or 'other', never the raw path", () => {
    expect(routeLabel("/v1/jobs/cm123", template)).toBe("/v1/jobs/{job_id}");
    expect(routeLabel("/t/some-slug", template)).toBe("/t/*");
    expect(routeLabel("/dashboard", template)).toBe("/dashboard");
    expect(routeLabel("/", template)).toBe("/");
    expect(routeLabel("/wp-admin/setup.php", template)).toBe("other");
  });
});
