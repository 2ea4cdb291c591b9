import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The current time as our timestamp columns hold it: UTC wall-clock values in `timestamp(3)` (Prisma's
 * convention), so `now()` is converted before it is compared with or written to them.
 */
export const NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
