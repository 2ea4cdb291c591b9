"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { buttonClass } from "@/components/ui/button";
import { ErrorText, Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { acceptInvitation, ROLE_LABELS, type TeamRole } from "@/lib/browser/teams";

/** The invitation page's one decision: join (a POST, so no link preview or prefetch can use the invitation). */
export function AcceptInvitation({ token, teamName, role }: { token: string; teamName: string; role: TeamRole }) {
  const hydrated = useHydrated();
  // No refresh of this page after joining: read again, it would say the link was used (which it now is). The
  // dashboard's pages, where the workspace line is, are rendered anew when "Open the team" is followed.
  const accept = useMutation({ mutationFn: () => acceptInvitation(token) });
  if (accept.data)
    return (
      <div className="flex flex-col gap-4">
        <Notice tone="success" data-testid="invitation-accepted">
          You joined {accept.data.team.name} as {ROLE_LABELS[accept.data.team.role].toLowerCase()}.
        </Notice>
        <Link
          href={`/dashboard/team?team=${encodeURIComponent(accept.data.team.id)}`}
          className={buttonClass("primary", "lg", "self-start")}
        >
          Open the team
        </Link>
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
      <p className="break-words">
        You are invited to <strong>{teamName}</strong> as {ROLE_LABELS[role].toLowerCase()}.
      </p>
      <button
        type="button"
        className={buttonClass("primary", "lg", "self-start")}
        disabled={!hydrated || accept.isPending}
        onClick={() => accept.mutate()}
      >
        {accept.isPending ? "Joining…" : "Join the team"}
      </button>
      <ErrorText error={accept.error} />
    </div>
  );
}
