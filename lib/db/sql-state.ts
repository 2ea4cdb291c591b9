// PostgreSQL's SQLSTATE of a failed statement, however it reached us: pg's error, or Prisma's wrapping of a
// driver adapter's (`meta.driverAdapterError.cause.code` / `originalCode`), possibly as some error's cause.

const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Prisma's own codes (P1001, P2010, …) have the same shape. */
const PRISMA_CODE = /^P[1-9][0-9]{3}$/;

export function sqlState(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== "object" || depth > 5) return null;
  const e = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { code?: unknown; originalCode?: unknown } } };
    cause?: unknown;
  };
  const adapter = e.meta?.driverAdapterError?.cause;
  for (const code of [adapter?.originalCode, adapter?.code, e.code])
    if (typeof code === "string" && SQLSTATE.test(code) && !PRISMA_CODE.test(code)) return code;
  return sqlState(e.cause, depth + 1);
}

/** The message PostgreSQL gave, wherever the wrapping put it. */
export function postgresMessage(error: unknown): string {
  const e = error as { message?: unknown; meta?: { driverAdapterError?: { cause?: { message?: unknown } } } };
  const adapter = e?.meta?.driverAdapterError?.cause?.message;
  return [adapter, e?.message].filter((m): m is string => typeof m === "string").join(" ");
}
