import { deleteTeam } from "@/lib/teams/delete-team";
import { removeStoredUploads } from "@/lib/uploads/resolve-upload";

/** DELETE /v1/teams/{team_id}: the team, then its uploads' stored files, which no row names any more. */
export async function deleteTeamAndFiles(teamId: string, personId: string | null): Promise<void> {
  const { uploads } = await deleteTeam(teamId, personId);
  await removeStoredUploads(uploads);
}
