"use client";

import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CopyButton } from "@/components/dashboard/api-key-panel";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { buttonClass } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { formatDate, formatDateTime } from "@/lib/browser/dates";
import { teamKey, type TeamView } from "@/lib/browser/teams";
import { fetchScimToken, makeScimToken, revokeScimToken } from "@/lib/browser/team-sso";

/** The team's SCIM token (the owner): its base URL, whether one exists, made (shown once), regenerated, revoked. */
export function ScimToken({ team, className }: { team: TeamView; className: string }) {
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const queryKey = [...teamKey(team.id), "scim"];
  const state = useQuery({ queryKey, queryFn: () => fetchScimToken(team.id) });
  const [made, setMade] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<"regenerate" | "revoke" | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey });
  const make = useMutation({
    mutationFn: () => makeScimToken(team.id),
    onSuccess: (answer) => {
      setConfirm(null);
      setMade(answer.token ?? null);
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: () => revokeScimToken(team.id),
    onSuccess: () => {
      setConfirm(null);
      setMade(null);
      refresh();
    },
  });
  const token = state.data;
  return (
    <div className={className} data-testid="team-scim">
      <h3 className="text-sm font-medium">SCIM provisioning</h3>
      <p className="text-sm text-stone-600">
        Your identity provider adds and removes the team&apos;s members through SCIM 2.0 with this base URL and a token.
        A person it deactivates or deletes leaves the team at once.
      </p>
      <ErrorText error={state.error} />
      {token ? (
        <div className="flex flex-col gap-1 text-sm">
          <span className="text-stone-600">Base URL</span>
          <div className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 font-mono break-all" data-testid="scim-base-url">
              {token.base_url}
            </code>
            <CopyButton text={token.base_url} label="Copy URL" testId="copy-scim-url" />
          </div>
        </div>
      ) : null}
      {made ? <NewScimToken key={made} secret={made} onDone={() => setMade(null)} /> : null}
      {token ? (
        <p className="text-sm break-words" data-testid="scim-token-state">
          {token.exists && token.token_prefix ? (
            <>
              Token <code className="font-mono text-xs">{token.token_prefix}…</code>
              {token.created_at ? `, made ${formatDate(token.created_at)}` : ""} ·{" "}
              {token.last_used_at ? `last used ${formatDateTime(token.last_used_at)}` : "never used"}
            </>
          ) : (
            "No SCIM token: provisioning is off."
          )}
        </p>
      ) : null}
      {token ? (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonClass(token.exists ? "secondary" : "primary", "sm")}
            disabled={!hydrated || make.isPending}
            onClick={() => (token.exists ? setConfirm("regenerate") : make.mutate())}
          >
            {make.isPending ? "Making…" : token.exists ? "Regenerate token" : "Make a SCIM token"}
          </button>
          {token.exists ? (
            <button
              type="button"
              className={buttonClass("danger-outline", "sm")}
              disabled={!hydrated}
              onClick={() => setConfirm("revoke")}
            >
              Revoke token
            </button>
          ) : null}
        </div>
      ) : null}
      {confirm === "regenerate" ? (
        <ConfirmBox
          label="Regenerate the SCIM token"
          confirmText="Regenerate"
          busy={make.isPending}
          onConfirm={() => make.mutate()}
          onCancel={() => setConfirm(null)}
        >
          Make a new token? The current one stops at once; give the new one to your identity provider.
        </ConfirmBox>
      ) : null}
      {confirm === "revoke" ? (
        <ConfirmBox
          label="Revoke the SCIM token"
          confirmText="Revoke"
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate()}
          onCancel={() => setConfirm(null)}
        >
          Revoke the token? Your identity provider can no longer add or remove members; those it added stay.
        </ConfirmBox>
      ) : null}
      <ErrorText error={make.error ?? revoke.error} />
    </div>
  );
}

/** The new SCIM token, shown once. Focus moves to its Copy button. */
function NewScimToken({ secret, onDone }: { secret: string; onDone: () => void }) {
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => copyButton.current?.focus(), []);
  return (
    <section
      aria-label="New SCIM token"
      className="flex flex-col gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm"
    >
      <p className="font-medium">Copy the token now, it is shown only once.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="new-scim-token" className="min-w-0 flex-1 rounded bg-white px-2 py-1 font-mono break-all">
          {secret}
        </code>
        <CopyButton ref={copyButton} text={secret} label="Copy token" testId="copy-scim-token" />
      </div>
      <button type="button" className={buttonClass("secondary", "sm", "self-start")} onClick={onDone}>
        Done
      </button>
    </section>
  );
}
