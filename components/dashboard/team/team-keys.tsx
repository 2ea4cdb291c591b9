"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CopyButton } from "@/components/dashboard/api-key-panel";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { ErrorText } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { formatDate, formatDateTime } from "@/lib/browser/dates";
import {
  createTeamKey,
  fetchTeamKeys,
  revokeTeamKey,
  SCOPE_LABELS,
  teamKey,
  type TeamKeyView,
  type TeamView,
} from "@/lib/browser/teams";
import { KEY_SCOPES, type KeyScope } from "@/lib/http/permissions";

const card = "flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4";
const EXPIRIES = [
  { label: "Never", days: null },
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "1 year", days: 365 },
] as const;

/** The team's named keys (admins): each with its scopes and expiry, its secret shown once to the one who made it. */
export function TeamKeysSection({ team }: { team: TeamView }) {
  const queryClient = useQueryClient();
  const queryKey = [...teamKey(team.id), "keys"];
  const keys = useQuery({ queryKey, queryFn: () => fetchTeamKeys(team.id) });
  const [made, setMade] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<TeamKeyView | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: teamKey(team.id) });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeTeamKey(team.id, id),
    onSuccess: () => {
      setRevoking(null);
      refresh();
    },
  });
  return (
    <section aria-labelledby="team-keys-heading" className={card} data-testid="team-keys">
      <h2 id="team-keys-heading" className="text-base font-medium">
        Team keys
      </h2>
      <p className="text-sm text-stone-600">
        Keys for programs that act in the team, each limited to what it needs. A key stops when it expires, when it is
        revoked, or when the admin who made it leaves the team or stops being an admin.
      </p>
      {made ? <NewTeamKey key={made.key} name={made.name} secret={made.key} onDone={() => setMade(null)} /> : null}
      <ErrorText error={keys.error} />
      {keys.data && keys.data.length === 0 ? <p className="text-sm text-stone-500">No team keys yet.</p> : null}
      {keys.data && keys.data.length > 0 ? (
        <ul className="flex flex-col divide-y divide-stone-200 text-sm" aria-label="Team keys">
          {keys.data.map((key) => (
            <li key={key.id} className="flex flex-wrap items-start justify-between gap-2 py-2" data-testid="team-key">
              <div className="flex min-w-0 flex-col gap-0.5">
                <span className="font-medium break-words">
                  {key.name} <code className="font-mono text-xs text-stone-500">{key.key_prefix}…</code>
                </span>
                <span className="text-xs text-stone-600">{key.scopes.join(", ")}</span>
                <span className="text-xs break-all text-stone-500">
                  Made by {key.created_by.label} on {formatDate(key.created_at)} ·{" "}
                  {key.expired ? (
                    <strong className="text-red-700">expired</strong>
                  ) : key.expires_at ? (
                    `expires ${formatDate(key.expires_at)}`
                  ) : (
                    "never expires"
                  )}{" "}
                  · {key.last_used_at ? `last used ${formatDateTime(key.last_used_at)}` : "never used"}
                </span>
              </div>
              <button
                type="button"
                className={buttonClass("secondary", "sm")}
                onClick={() => setRevoking(key)}
                aria-label={`Revoke ${key.name}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {revoking ? (
        <ConfirmBox
          label="Revoke the key"
          confirmText="Revoke"
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate(revoking.id)}
          onCancel={() => setRevoking(null)}
        >
          Revoke {revoking.name}? Every program that uses it stops working at once.
        </ConfirmBox>
      ) : null}
      <ErrorText error={revoke.error} />
      <CreateTeamKey
        team={team}
        onCreated={(result) => {
          setMade(result);
          refresh();
        }}
      />
    </section>
  );
}

function CreateTeamKey({
  team,
  onCreated,
}: {
  team: TeamView;
  onCreated: (made: { name: string; key: string }) => void;
}) {
  const nameId = useId();
  const expiryId = useId();
  const hydrated = useHydrated();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<KeyScope[]>(["read"]);
  const [expiry, setExpiry] = useState<number | null>(90);
  const create = useMutation({
    mutationFn: () =>
      createTeamKey(team.id, {
        name: name.trim(),
        scopes,
        expires_at: expiry === null ? null : new Date(Date.now() + expiry * 86_400_000).toISOString(),
      }),
    onSuccess: (made) => {
      setName("");
      onCreated({ name: made.name, key: made.key });
    },
  });
  return (
    <details className="flex flex-col gap-3">
      <summary className="cursor-pointer text-sm font-medium">Make a team key</summary>
      <form
        className="mt-3 flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() && scopes.length > 0) create.mutate();
        }}
      >
        <div className="flex flex-wrap items-end gap-3">
          <label htmlFor={nameId} className="flex min-w-0 flex-1 basis-56 flex-col gap-1 text-sm">
            Name
            <input
              id={nameId}
              required
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder="Newsroom CMS"
              className={controlClass}
            />
          </label>
          <label htmlFor={expiryId} className="flex flex-col gap-1 text-sm">
            Expires after
            <select
              id={expiryId}
              className={controlClass}
              value={expiry ?? ""}
              onChange={(event) => setExpiry(event.target.value === "" ? null : Number(event.target.value))}
            >
              {EXPIRIES.map((option) => (
                <option key={option.label} value={option.days ?? ""}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <fieldset className="flex flex-col gap-1 text-sm">
          <legend className="mb-1">What it may do</legend>
          {KEY_SCOPES.map((scope) => (
            <label key={scope} className="flex items-start gap-2">
              <input
                type="checkbox"
                className="mt-1"
                checked={scopes.includes(scope)}
                onChange={(event) =>
                  setScopes((now) =>
                    event.target.checked
                      ? KEY_SCOPES.filter((s) => s === scope || now.includes(s))
                      : now.filter((s) => s !== scope),
                  )
                }
              />
              <span>{SCOPE_LABELS[scope]}</span>
            </label>
          ))}
        </fieldset>
        <button
          type="submit"
          className={buttonClass("primary", "md", "self-start")}
          disabled={!hydrated || create.isPending || scopes.length === 0}
        >
          {create.isPending ? "Making…" : "Make key"}
        </button>
      </form>
      <ErrorText error={create.error} />
    </details>
  );
}

/** The new key's secret, shown once. Focus moves to its Copy button. */
function NewTeamKey({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => copyButton.current?.focus(), []);
  return (
    <section
      aria-label={`New key ${name}`}
      className="flex flex-col gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm"
    >
      <p className="font-medium">{name}: copy it now, it is shown only once.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="new-team-key" className="min-w-0 flex-1 rounded bg-white px-2 py-1 font-mono break-all">
          {secret}
        </code>
        <CopyButton ref={copyButton} text={secret} label="Copy key" testId="copy-team-key" />
      </div>
      <button type="button" className={buttonClass("secondary", "sm", "self-start")} onClick={onDone}>
        Done
      </button>
    </section>
  );
}
