import type { TeamRole } from "@/lib/generated/prisma/client";
import type { TeamOut } from "@/lib/teams/schemas";

export function serializeTeam(
  team: { id: string; name: string | null; slug: string | null; createdAt: Date },
  role: TeamRole,
): TeamOut {
  return {
    id: team.id,
    name: team.name ?? "",
    slug: team.slug ?? "",
    role,
    created_at: team.createdAt.toISOString(),
  };
}
