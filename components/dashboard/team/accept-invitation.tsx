"use client";

import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import { buttonClass } from "@/components/ui/button";
import { ErrorText, Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { acceptInvitation, ROLE_LABELS, type TeamRole } from "@/lib/browser/teams";

/** The invitation page's one decision: join (a POST, so no link preview or prefetch can use the invitation). */
export function AcceptInvitation({ token, teamName, role }: { token: string; teamName: string; role: TeamRole }) {
  const hydrated = useHydrated();
  // No refresh of this page after joining: read again, it would say the link was used (which it now is). "Open the
  // team" makes the team the workspace first, so the dashboard's workspace line names the team it opens on.
  const accept = useMutation({ mutationFn: () => acceptInvitation(token) });
  const open = useMutation({
    mutationFn: async (teamId: string) => {
      await apiFetch("/v1/me/workspace", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ workspace_id: teamId }),
      });
      // A whole page load, as the workspace switcher does: every part of the dashboard, its workspace line too, is
      // rendered in the workspace just chosen.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign(`/dashboard/team?team=${encodeURIComponent(teamId)}&joined=1`);
    },
  });
  if (accept.data)
    return (
      <div className="flex flex-col gap-4">
        <Notice tone="success" data-testid="invitation-accepted">
          You joined {accept.data.team.name} as {ROLE_LABELS[accept.data.team.role].toLowerCase()}.
        </Notice>
        <button
          type="button"
          className={buttonClass("primary", "lg", "self-start")}
          disabled={open.isPending || open.isSuccess}
          onClick={() => open.mutate(accept.data.team.id)}
        >
          Open the team
        </button>
        <ErrorText error={open.error} />
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
