import type { Metadata } from "next";
import { BatchesPanel } from "@/components/dashboard/batches-panel";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { createBatchEndpoint } from "@/lib/batches/endpoints";

export const metadata: Metadata = { title: "Batches" };

export default async function BatchesPage({ searchParams }: { searchParams: Promise<{ batch?: string | string[] }> }) {
  const { batch } = await searchParams;
  const found = await dashboardWorkspace();
  const needs = found ? missingRole(found.workspace, createBatchEndpoint) : null;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Batches</h1>
      <p className="text-sm text-stone-600">
        Up to a thousand links at once, any platform: each becomes a transcript in your history, charged once.
        Duplicates and lines that are no link are skipped with a note; failed links can be retried together.
      </p>
      {found && needs ? (
        <RoleNotice workspace={found.workspace} needed={needs} what="Starting a batch" />
      ) : (
        <BatchesPanel initialBatchId={typeof batch === "string" && batch.length <= 64 ? batch : null} />
      )}
    </section>
  );
}
