import { z, type ZodType } from "zod";

/**
 * A query-string integer: "12" becomes 12; anything else is left as the string, so the inner
 * schema reports it (as FastAPI does) with type int_parsing and the raw input.
 */
export function queryInt<S extends ZodType>(schema: S) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^[+-]?\d{1,15}$/.test(value.trim()) ? Number(value) : value),
    schema,
  );
}
