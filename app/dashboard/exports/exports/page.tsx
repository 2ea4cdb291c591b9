import type { Metadata } from "next";
import Link from "next/link";
import { DestinationsPanel } from "@/components/dashboard/destinations-panel";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { listDestinationsEndpoint } from "@/lib/exports/endpoints";

export const metadata: Metadata = { title: "Exports" };

export default async function ExportsPage() {
  const found = await dashboardWorkspace();
  const needed = found ? missingRole(found.workspace, listDestinationsEndpoint) : null;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Exports</h1>
      <p className="text-sm text-stone-600">
        Every transcript that is new in this library, or corrected, is delivered on its own as a Markdown note to each
        destination here: a page in a Notion database, or a file in a folder on this server (an Obsidian vault or a
        synced folder). What you write outside Verbatim&apos;s part of a note is kept. To download notes yourself, use{" "}
        <Link href="/dashboard/history" className="underline">
          History
        </Link>
        &apos;s export.
      </p>
      {found && needed ? (
        <RoleNotice workspace={found.workspace} needed={needed} what="Managing export destinations" />
      ) : (
        <DestinationsPanel />
      )}
    </section>
  );
}
