import type { Metadata } from "next";
import { AlertsPanel } from "@/components/dashboard/alerts-panel";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { listAlertsEndpoint } from "@/lib/alerts/endpoints";
import { alertScopeChoices } from "@/lib/alerts/scope-choices";
import { env } from "@/lib/env";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage() {
  const found = await dashboardWorkspace();
  const needed = found ? missingRole(found.workspace, listAlertsEndpoint) : null;
  const choices =
    found && !needed
      ? await alertScopeChoices(found.personId, found.workspace)
      : { library: { kind: "person" as const, name: null }, teams: [], follows: [], ownOverTeam: [] };
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Alerts</h1>
      <p className="text-sm text-stone-600">
        Saved searches: when a new transcript in your library (or, as you choose, a team&apos;s library, the episodes of
        shows you follow, or any published one) says what you watch for, it lands here, in your webhooks (
        <code>alert.matched</code>), in the alert&apos;s Atom feed and, if you ask, in your e-mail.
      </p>
      {found && needed ? (
        <RoleNotice workspace={found.workspace} needed={needed} what="Reading alerts" />
      ) : (
        <AlertsPanel choices={choices} mailToLog={!env().SMTP_URL} />
      )}
    </section>
  );
}
