import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The current time as our timestamp columns hold it: UTC wall-clock values in `timestamp(3)` (Prisma's
 * convention), so `now()` is converted before it is compared with or written to them.
 */
export const NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

/** `now()` by the database's clock, in epoch milliseconds: a time to compare with NOW later (`atEpochMs`). */
export const NOW_EPOCH_MS = Prisma.sql`(EXTRACT(EPOCH FROM now()) * 1000)::float8`;

/** An instant in epoch milliseconds as our timestamp columns hold it (as NOW). */
export function atEpochMs(ms: number): Prisma.Sql {
  return Prisma.sql`(to_timestamp(${ms}::float8 / 1000) AT TIME ZONE 'UTC')`;
}
