import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { mayStillManage } from "./access";

/**
 * DELETE /v1/exports/destinations/{id}: the destination, its sealed token and its deliveries go (what it already
 * wrote stays where it is: the folder's files, the Notion pages). Another account's id is a 404 like an unknown one.
 */
export async function deleteDestination(
  { userId, personId }: { userId: string; personId: string | null },
  id: string,
): Promise<null> {
  const db = await getDb();
  const deleted = await db.$transaction(async (tx) => {
    await mayStillManage(tx, userId, personId);
    return tx.exportDestination.deleteMany({ where: { id, userId } });
  });
  if (deleted.count === 0) throw errors.notFound("No export destination with this id.");
  return null;
}
