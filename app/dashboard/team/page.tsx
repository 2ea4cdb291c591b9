import type { Metadata } from "next";
import { cookies } from "next/headers";
import { auth } from "@/lib/auth/nextauth";
import { WORKSPACE_COOKIE, couldBeAccountId } from "@/lib/teams/workspace";
import { TeamPanel } from "@/components/dashboard/team/team-panel";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await auth();
  const asked = (await searchParams).team;
  const chosen = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const workspace =
    (typeof asked === "string" ? asked.slice(0, 64) : null) ?? (chosen && couldBeAccountId(chosen) ? chosen : null);
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Team</h1>
      <TeamPanel me={session?.user?.id ?? ""} initialTeamId={workspace} />
    </section>
  );
}
