import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { RequestValidationError } from "@/lib/http/validation";
import { sealSecret } from "@/lib/auth/secret-box";
import { mayStillManage } from "./access";
import { folderPathProblem } from "./folder-path";
import type { CreateDestinationRequest, DestinationOut } from "./schemas";
import { serializeDestination } from "./serializers";

/**
 * POST /v1/exports/destinations: a folder under EXPORT_FOLDER_ROOT (503 when the operator set none) or a Notion
 * database with its integration's token (sealed; never shown again). One per folder or database (409), at most
 * EXPORT_MAX_DESTINATIONS (409). From then on each transcript new, corrected or followed in the account is delivered
 * to it; the person who adds it is kept (`personId`; none for a team's key): in a team it stops when they go.
 */
export async function createDestination(
  { userId, personId }: { userId: string; personId: string | null },
  request: CreateDestinationRequest,
): Promise<DestinationOut> {
  let target: string;
  let secretCipher: string | null = null;
  if (request.kind === "folder") {
    if (!env().EXPORT_FOLDER_ROOT)
      throw errors.notConfigured(
        "destination_not_configured",
        "Folder destinations are off on this server: its operator has not named a folder for them.",
      );
    const path = request.path!;
    const problem = folderPathProblem(path);
    if (problem)
      throw new RequestValidationError([
        { type: "value_error", loc: ["body", "path"], msg: `Value error, ${problem}`, input: path, ctx: { error: {} } },
      ]);
    target =
      path
        .split(/[\\/]+/)
        .filter((part) => part !== "" && part !== ".")
        .join("/") || ".";
  } else {
    target = request.database_id!.replace(/-/g, "").toLowerCase();
    target = `${target.slice(0, 8)}-${target.slice(8, 12)}-${target.slice(12, 16)}-${target.slice(16, 20)}-${target.slice(20)}`;
    secretCipher = sealSecret("exportDestination", request.token!);
  }
  const name = request.name ?? (request.kind === "folder" ? target : "Notion");
  const db = await getDb();
  const destination = await db.$transaction(async (tx) => {
    await mayStillManage(tx, userId, personId);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`export-destinations:${userId}`}))`;
    const count = await tx.exportDestination.count({ where: { userId } });
    if (count >= env().EXPORT_MAX_DESTINATIONS)
      throw errors.conflict(
        "too_many_destinations",
        `An account can have ${env().EXPORT_MAX_DESTINATIONS} export destinations; delete one first.`,
      );
    const same = await tx.exportDestination.findFirst({
      where: { userId, kind: request.kind, target },
      select: { id: true },
    });
    if (same)
      throw errors.conflict(
        "destination_exists",
        `This account already exports to this ${request.kind === "folder" ? "folder" : "database"} (${same.id}); delete it first, or keep using it.`,
      );
    return tx.exportDestination.create({
      data: { userId, kind: request.kind, name, target, secretCipher, createdById: personId },
    });
  });
  return serializeDestination(destination);
}
