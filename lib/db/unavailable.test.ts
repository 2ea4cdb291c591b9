import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";

// Shapes recorded from Prisma 7 + @prisma/adapter-pg against a stopped and a stopping PostgreSQL
// (test/faults/postgres-restart.test.ts drives the real thing).
const adapterError = (cause: Record<string, unknown>, code = "P2010") =>
  Object.assign(new Error("Invalid `prisma.$queryRaw()` invocation"), {
    name: "PrismaClientKnownRequestError",
    code,
    meta: { driverAdapterError: { name: "DriverAdapterError", cause } },
  });

describe("isDatabaseUnavailable", () => {
  it("recognises an unreachable server, a cut connection, a shutdown and a full pool", () => {
    expect(isDatabaseUnavailable(adapterError({ kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 }))).toBe(
      true,
    );
    expect(
      isDatabaseUnavailable(
        adapterError({
          kind: "postgres",
          code: "57P01",
          originalCode: "57P01",
          message: "terminating connection due to administrator command",
        }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(adapterError({ kind: "ConnectionClosed" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("pool timeout"), { code: "P2024" }))).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error("wrapped", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    // The embedded database's socket while its thread restarts.
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error("connect ENOENT /data/socket/.s.PGSQL.5432"), { code: "ENOENT", syscall: "connect" }),
      ),
    ).toBe(true);
  });

  it("leaves query errors and everything else alone", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("no such file"), { code: "ENOENT", syscall: "open" }))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(adapterError({ kind: "UniqueConstraintViolation" }, "P2002"))).toBe(false);
    expect(isDatabaseUnavailable(adapterError({ kind: "postgres", code: "42601", message: "syntax error" }))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
