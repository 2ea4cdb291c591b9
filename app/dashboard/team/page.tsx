import type { Metadata } from "next";
import { cookies } from "next/headers";
import { auth } from "@/lib/auth/nextauth";
import { WORKSPACE_COOKIE, couldBeAccountId } from "@/lib/membership/workspace";
import { TeamPanel } from "@/components/dashboard/team/team-panel";
import { env } from "@/lib/env";
import { oidcConfigured } from "@/lib/auth/oidc";
import { oidcTeamRoleRules } from "@/lib/auth/oidc-settings";
import { scimProvisionedTeams } from "@/lib/scim/provisioned";

/** The teams whose roles the identity provider sets at each sign-in (OIDC_TEAM_ROLES), and its name. */
function providerRoles(): { name: string; teams: string[] } | null {
  const settings = env();
  const teams = oidcConfigured(settings) ? [...new Set(oidcTeamRoleRules(settings).map((rule) => rule.team))] : [];
  return teams.length > 0 ? { name: settings.OIDC_NAME, teams } : null;
}

/** The identity provider's name where the server has one (requiring single sign-on needs it). */
function ssoProvider(): string | null {
  const settings = env();
  return oidcConfigured(settings) ? settings.OIDC_NAME : null;
}

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await auth();
  const query = await searchParams;
  const asked = query.team;
  const chosen = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const workspace =
    (typeof asked === "string" ? asked.slice(0, 64) : null) ?? (chosen && couldBeAccountId(chosen) ? chosen : null);
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Team</h1>
      <TeamPanel
        me={session?.user?.id ?? ""}
        initialTeamId={workspace}
        identityProvider={providerRoles()}
        ssoProvider={ssoProvider()}
        joined={query.joined === "1"}
        scimTeams={session?.user?.id ? await scimProvisionedTeams(session.user.id) : []}
      />
    </section>
  );
}
