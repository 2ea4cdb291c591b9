import type { Metadata } from "next";
import { env } from "@/lib/env";
import { ApiKeyPanel } from "@/components/dashboard/api-key-panel";
import { SessionsPanel } from "@/components/dashboard/sessions-panel";
import { ConnectionsPanel } from "@/components/dashboard/connections-panel";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { getApiKeyEndpoint } from "@/lib/auth/endpoints";

export const metadata: Metadata = { title: "API key" };

export default async function KeysPage() {
  const found = await dashboardWorkspace();
  const needed = found ? missingRole(found.workspace, getApiKeyEndpoint) : null;
  const inTeam = found?.workspace.kind === "team";
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">{inTeam ? "The team's API key" : "API key"}</h1>
      {found && needed ? (
        <RoleNotice workspace={found.workspace} needed={needed} what="The team's API key" />
      ) : (
        <ApiKeyPanel baseUrl={env().APP_URL} />
      )}
      {inTeam ? (
        <p className="text-sm text-stone-600" data-testid="own-connections-note">
          Connected apps and browser sessions below are yours, whichever workspace you are in.
        </p>
      ) : null}
      <ConnectionsPanel />
      <SessionsPanel />
    </section>
  );
}
