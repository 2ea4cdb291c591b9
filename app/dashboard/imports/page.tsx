import type { Metadata } from "next";
import { FollowsPanel } from "@/components/dashboard/follows-panel";
import { ImportsPanel } from "@/components/dashboard/imports-panel";
import { env } from "@/lib/env";
import { speechRecognitionAvailable } from "@/lib/transcripts/asr-provider";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { startImportEndpoint } from "@/lib/imports/endpoints";
import { createFollowEndpoint } from "@/lib/follows/endpoints";

export const metadata: Metadata = { title: "Imports" };

export default async function ImportsPage() {
  const found = await dashboardWorkspace();
  const importNeeds = found ? missingRole(found.workspace, startImportEndpoint) : null;
  const followNeeds = found ? missingRole(found.workspace, createFollowEndpoint) : null;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Imports</h1>
      <p className="text-sm text-stone-600">
        Transcribe a whole podcast or playlist: every episode lands in your history. Episodes you already have are
        skipped.
      </p>
      {found && importNeeds ? (
        <RoleNotice workspace={found.workspace} needed={importNeeds} what="Importing" />
      ) : (
        <ImportsPanel speechRecognition={speechRecognitionAvailable()} />
      )}
      <h2 className="text-xl font-semibold">Follows</h2>
      {found && followNeeds ? (
        <RoleNotice workspace={found.workspace} needed={followNeeds} what="Following a show" />
      ) : (
        <FollowsPanel maxBackfill={env().FOLLOW_MAX_BACKFILL} />
      )}
    </section>
  );
}
