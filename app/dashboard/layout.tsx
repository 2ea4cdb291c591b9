import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/nextauth";
import { DashboardNav } from "@/components/dashboard/nav";
import { BrandLink } from "@/components/site/site-header";
import { signOutAction } from "./actions";
import { buttonClass } from "@/components/ui/button";
import { WorkspaceSwitcher } from "@/components/dashboard/workspace-switcher";
import { dashboardWorkspaces, missingRole } from "@/lib/auth/dashboard-workspace";
import type { Workspace } from "@/lib/membership/workspace";
import { AbilitiesProvider, type Abilities } from "@/components/dashboard/abilities";
import { createTranscriptEndpoint, deleteTranscriptionEndpoint } from "@/lib/transcripts/endpoints";
import { publishEndpoint } from "@/lib/publishing/endpoints";
import { editTranscriptEndpoint } from "@/lib/edits/endpoints";
import { listAlertsEndpoint } from "@/lib/alerts/endpoints";

export const dynamic = "force-dynamic";

/** What the workspace's role may do, from the table the API enforces: the dashboard offers nothing it would refuse. */
function abilitiesIn(workspace: Workspace): Abilities {
  return {
    transcribe: !missingRole(workspace, createTranscriptEndpoint),
    publish: !missingRole(workspace, publishEndpoint),
    edit: !missingRole(workspace, editTranscriptEndpoint),
    delete: !missingRole(workspace, deleteTranscriptionEndpoint),
  };
}

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.user?.id) redirect("/signin?callbackUrl=/dashboard");
  const workspaces = await dashboardWorkspaces();
  if (!workspaces) redirect("/signin?callbackUrl=/dashboard");
  const { current, choices } = workspaces;
  const currentChoice = choices.find((choice) => choice.id === current.accountId) ?? choices[0];
  return (
    <div className="min-h-screen">
      {/* One line at every width: the brand and the pages (below lg, behind a button naming the current one); on a
          phone, sign-out too, which the workspace line beneath has no room for beside the workspace's select. */}
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center gap-x-4 gap-y-1 px-4 py-2 sm:px-6 md:py-3">
          <BrandLink href="/dashboard" />
          <DashboardNav alerts={!missingRole(current, listAlertsEndpoint)} />
          <SignOut className="sm:hidden" />
        </div>
      </header>
      {/* Which workspace every page acts in, on every page and width: a line of its own under the header (which
          stays one line on a phone). */}
      <section aria-label="Workspace" className="border-b border-stone-200 bg-stone-50">
        <div className="mx-auto flex max-w-5xl items-center gap-x-4 px-4 py-1 sm:px-6">
          <WorkspaceSwitcher current={currentChoice} choices={choices} />
          {/* Who is signed in, and (wider than a phone) signing out: here rather than in the header, whose row of
              eleven pages they would push onto a second line at a laptop's width. */}
          <span
            data-testid="user-email"
            className="ml-auto max-w-56 shrink-0 truncate text-sm text-stone-600 max-sm:sr-only"
            title={session.user.email ?? undefined}
          >
            {session.user.email}
          </span>
          <SignOut className="max-sm:hidden" />
        </div>
      </section>
      <main id="main" className="mx-auto max-w-5xl px-4 py-4 sm:px-6 sm:py-6 md:py-8">
        <AbilitiesProvider abilities={abilitiesIn(current)}>{children}</AbilitiesProvider>
      </main>
    </div>
  );
}

/** Sign-out, a form posting to the server action (it works before hydration). */
function SignOut({ className }: { className: string }) {
  return (
    <form action={signOutAction} className={`flex items-center ${className}`}>
      <button type="submit" className={buttonClass("secondary", "sm", "shrink-0")}>
        Sign out
      </button>
    </form>
  );
}
