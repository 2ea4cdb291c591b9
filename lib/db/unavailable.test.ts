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
  it("recognises a database too busy to answer in time: an expired transaction, a deadlock, a lock not granted", () => {
    expect(
      isDatabaseUnavailable(
        Object.assign(
          new Error("Transaction API error: Transaction already closed: the timeout for this transaction was 20000 ms"),
          {
            name: "PrismaClientKnownRequestError",
            code: "P2028",
          },
        ),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("write conflict or a deadlock"), { code: "P2034" }))).toBe(
      true,
    );
    for (const code of ["40P01", "40001", "55P03"])
      expect(isDatabaseUnavailable(adapterError({ kind: "postgres", code, originalCode: code }))).toBe(true);
    // A constraint the query broke is the query's fault, not the load's.
    expect(isDatabaseUnavailable(adapterError({ kind: "postgres", code: "23505", originalCode: "23505" }))).toBe(false);
  });

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
