import { describe, expect, it } from "vitest";
import { postgresMessage, sqlState } from "@/lib/db/sql-state";

// Shapes as Prisma 7 with @prisma/adapter-pg reports a failed raw statement (see unavailable.test.ts).
const adapterError = (cause: Record<string, unknown>) =>
  Object.assign(new Error("Invalid `prisma.$queryRawUnsafe()` invocation"), {
    name: "PrismaClientKnownRequestError",
    code: "P2010",
    meta: { driverAdapterError: { name: "DriverAdapterError", cause } },
  });

describe("sqlState", () => {
  it("finds PostgreSQL's code under Prisma's wrapping, never Prisma's own code", () => {
    const canceled = adapterError({
      kind: "postgres",
      code: "57014",
      message: "canceling statement due to statement timeout",
    });
    expect(sqlState(canceled)).toBe("57014");
    expect(postgresMessage(canceled)).toContain("statement timeout");
    expect(
      sqlState(adapterError({ kind: "postgres", originalCode: "XX000", message: "tsquery stack too small" })),
    ).toBe("XX000");
    expect(sqlState(Object.assign(new Error("from pg"), { code: "54001" }))).toBe("54001");
    expect(sqlState(new Error("wrapped", { cause: Object.assign(new Error("x"), { code: "57014" }) }))).toBe("57014");
    expect(sqlState(Object.assign(new Error("prisma"), { code: "P2010" }))).toBeNull();
    expect(sqlState(new TypeError("x is undefined"))).toBeNull();
    expect(sqlState(null)).toBeNull();
  });
});
