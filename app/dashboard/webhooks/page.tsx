import type { Metadata } from "next";
import { WebhooksPanel } from "@/components/dashboard/webhooks-panel";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { listWebhooksEndpoint } from "@/lib/webhooks/endpoints";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const found = await dashboardWorkspace();
  const needed = found ? missingRole(found.workspace, listWebhooksEndpoint) : null;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Webhooks</h1>
      <p className="text-sm text-stone-600">
        Be told when a transcription job or an import finishes instead of polling: Verbatim POSTs signed events
        (Standard Webhooks) to your endpoints, and retries for about a day when they do not answer 2xx.
      </p>
      {found && needed ? (
        <RoleNotice workspace={found.workspace} needed={needed} what="Managing webhooks" />
      ) : (
        <WebhooksPanel />
      )}
    </section>
  );
}
