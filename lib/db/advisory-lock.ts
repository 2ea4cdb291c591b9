import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Holds the advisory lock named `name` until `tx` ends, so transactions that take the same name decide one
 * after another (a limit checked, then written). Names share one 32-bit space (hashtext), so each starts with
 * its concern ("uploads:<user id>"); two names that collide only make their transactions wait for each other.
 */
export async function lockUntilCommit(tx: Prisma.TransactionClient, name: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${name}))`;
}
