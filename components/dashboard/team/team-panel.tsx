"use client";

import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { AuditSection, UsageSection } from "@/components/dashboard/team/team-activity";
import { InvitationsSection, MembersSection } from "@/components/dashboard/team/team-members";
import { TeamKeysSection } from "@/components/dashboard/team/team-keys";
import { SingleSignOnSection } from "@/components/dashboard/team/team-sso";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { ErrorText, Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { TEAM_ACTIONS, atLeast } from "@/lib/roles/ladder";
import {
  createTeam,
  deleteTeam,
  fetchMembers,
  fetchTeam,
  fetchTeams,
  ROLE_LABELS,
  teamKey,
  TEAMS_KEY,
  transferTeam,
  updateTeam,
  type TeamView,
} from "@/lib/browser/teams";

const card = "flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4";

/**
 * The person's teams: choose one (the workspace they are in, when it is a team), or make one; then its members,
 * invitations, usage, activity and settings, each shown only to the roles that may use it.
 */
export function TeamPanel({
  me,
  initialTeamId,
  identityProvider = null,
  ssoProvider = null,
  joined = false,
  scimTeams = [],
}: {
  me: string;
  initialTeamId: string | null;
  /** Opened from an invitation just accepted (which made the team the workspace). */
  joined?: boolean;
  /** The person's teams whose members come from an identity provider by SCIM. */
  scimTeams?: string[];
  /** Where OIDC_TEAM_ROLES names teams: the provider's name (OIDC_NAME) and those teams' slugs. */
  identityProvider?: { name: string; teams: string[] } | null;
  /** The identity provider's name (OIDC_NAME) where the server has one configured. */
  ssoProvider?: string | null;
}) {
  const pickId = useId();
  const teams = useQuery({ queryKey: TEAMS_KEY, queryFn: fetchTeams });
  const [chosen, setChosen] = useState<string | null>(initialTeamId);
  const [deleted, setDeleted] = useState<string | null>(null);
  const list = teams.data ?? [];
  const current = list.find((team) => team.id === chosen) ?? list[0] ?? null;
  return (
    <div className="flex flex-col gap-6">
      {deleted ? (
        <Notice tone="success" role="status" data-testid="team-deleted">
          {deleted} was deleted, with its library, keys, webhooks and follows.
        </Notice>
      ) : joined && current && current.id === initialTeamId ? (
        <Notice tone="success" role="status" data-testid="team-joined">
          You joined {current.name} as {ROLE_LABELS[current.role].toLowerCase()}; the dashboard now works in it.
        </Notice>
      ) : null}
      {teams.isPending ? <p className="text-sm text-stone-500">Loading…</p> : null}
      <ErrorText error={teams.error} />
      {teams.data && list.length === 0 ? (
        <p className="text-sm text-stone-600">
          You are in no team yet. A team shares one library, API key, webhooks, follows and plan among its members.
        </p>
      ) : null}
      {list.length > 1 ? (
        <label htmlFor={pickId} className="flex flex-col gap-1 text-sm sm:max-w-sm">
          Team
          <select
            id={pickId}
            className={controlClass}
            value={current?.id}
            onChange={(event) => setChosen(event.target.value)}
          >
            {list.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name} ({ROLE_LABELS[team.role]})
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {current ? (
        <TeamDetail
          key={current.id}
          team={current}
          me={me}
          identityProvider={identityProvider}
          ssoProvider={ssoProvider}
          scim={scimTeams.includes(current.id)}
          onGone={() => {
            setDeleted(current.name);
            setChosen(null);
          }}
        />
      ) : null}
      <CreateTeam open={teams.data !== undefined && list.length === 0} onCreated={setChosen} />
    </div>
  );
}

function CreateTeam({ open, onCreated }: { open: boolean; onCreated: (id: string) => void }) {
  const nameId = useId();
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => createTeam({ name: name.trim() }),
    onSuccess: (team) => {
      setName("");
      onCreated(team.id);
      void queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
      // The workspace line and its switcher (the layout, rendered on the server) now have the team to choose.
      router.refresh();
    },
  });
  return (
    <details className={card} open={open || undefined}>
      <summary className="cursor-pointer text-base font-medium">Create a team</summary>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) create.mutate();
        }}
      >
        <label htmlFor={nameId} className="flex min-w-0 flex-1 basis-56 flex-col gap-1 text-sm">
          Name
          <input
            id={nameId}
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Newsroom"
            className={controlClass}
          />
        </label>
        <button type="submit" className={buttonClass("primary", "lg")} disabled={!hydrated || create.isPending}>
          {create.isPending ? "Creating…" : "Create"}
        </button>
      </form>
      <ErrorText error={create.error} />
    </details>
  );
}

function TeamDetail({
  team: listed,
  me,
  identityProvider,
  ssoProvider,
  scim,
  onGone,
}: {
  team: TeamView;
  me: string;
  identityProvider: { name: string; teams: string[] } | null;
  ssoProvider: string | null;
  scim: boolean;
  onGone: () => void;
}) {
  const detail = useQuery({ queryKey: teamKey(listed.id), queryFn: () => fetchTeam(listed.id) });
  const team = detail.data ?? listed;
  const admin = atLeast(team.role, TEAM_ACTIONS.manageMembers);
  // The provider is this team's authority: a role set here would be replaced at the member's next sign-in.
  const rolesFrom = identityProvider?.teams.includes(team.slug) ? identityProvider.name : null;
  return (
    <div className="flex flex-col gap-6" data-testid="team-detail">
      <div className="flex flex-col gap-1">
        <h2 className="text-xl font-semibold break-words">{team.name}</h2>
        <p className="text-sm text-stone-600">
          <code>{team.slug}</code> · your role: {ROLE_LABELS[team.role]}
          {team.members_count !== undefined
            ? ` · ${team.members_count} ${team.members_count === 1 ? "member" : "members"}`
            : ""}
        </p>
      </div>
      {rolesFrom ? (
        <Notice tone="warning" data-testid="roles-from-provider">
          Roles in this team come from {rolesFrom}: each sign-in through it sets a member&apos;s role from their groups,
          and removes them when no group matches. Change roles there; a change made here would not last.
        </Notice>
      ) : null}
      <MembersSection team={team} me={me} rolesFrom={rolesFrom} />
      {admin ? <InvitationsSection team={team} rolesFrom={rolesFrom} /> : null}
      {atLeast(team.role, TEAM_ACTIONS.manageKeys) ? <TeamKeysSection team={team} /> : null}
      <SingleSignOnSection team={team} provider={ssoProvider} scim={scim} />
      {admin ? <UsageSection team={team} /> : null}
      {admin ? <AuditSection team={team} /> : null}
      {admin ? <Settings team={team} onGone={onGone} /> : null}
    </div>
  );
}

function Settings({ team, onGone }: { team: TeamView; onGone: () => void }) {
  const nameId = useId();
  const slugId = useId();
  const transferId = useId();
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const [name, setName] = useState(team.name);
  const [slug, setSlug] = useState(team.slug);
  const [heir, setHeir] = useState("");
  const [confirm, setConfirm] = useState<"transfer" | "delete" | null>(null);
  const router = useRouter();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
  // A role or a team gone changes the workspace line above every page (and what was read in the team, if it was
  // the workspace): everything is read again.
  const refreshAll = () => {
    void queryClient.invalidateQueries();
    router.refresh();
  };
  const owner = team.role === "owner";
  const members = useQuery({
    queryKey: [...teamKey(team.id), "members"],
    queryFn: () => fetchMembers(team.id),
    enabled: owner,
  });
  const save = useMutation({
    mutationFn: () => updateTeam(team.id, { name: name.trim(), slug: slug.trim() }),
    onSuccess: refresh,
  });
  const transfer = useMutation({
    mutationFn: () => transferTeam(team.id, heir),
    onSuccess: () => {
      setConfirm(null);
      refreshAll();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteTeam(team.id),
    onSuccess: () => {
      onGone();
      refreshAll();
    },
  });
  const others = members.data?.filter((m) => m.role !== "owner") ?? [];
  return (
    <section aria-labelledby="settings-heading" className={card}>
      <h2 id="settings-heading" className="text-base font-medium">
        Settings
      </h2>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <label htmlFor={nameId} className="flex min-w-0 flex-1 basis-48 flex-col gap-1 text-sm">
          Name
          <input
            id={nameId}
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
            className={controlClass}
          />
        </label>
        <label htmlFor={slugId} className="flex min-w-0 flex-1 basis-48 flex-col gap-1 text-sm">
          Slug
          <input
            id={slugId}
            required
            pattern="[a-z0-9][a-z0-9\-]{1,38}[a-z0-9]"
            maxLength={40}
            value={slug}
            onChange={(event) => setSlug(event.target.value)}
            className={`${controlClass} font-mono`}
          />
        </label>
        <button type="submit" className={buttonClass()} disabled={!hydrated || save.isPending}>
          Save
        </button>
      </form>
      <ErrorText error={save.error} />
      {owner ? (
        <div className="flex flex-col gap-3 border-t border-stone-200 pt-3">
          <div className="flex flex-wrap items-end gap-3">
            <label htmlFor={transferId} className="flex min-w-0 flex-1 basis-48 flex-col gap-1 text-sm">
              Hand the team to
              <select
                id={transferId}
                className={controlClass}
                value={heir}
                onChange={(event) => setHeir(event.target.value)}
              >
                <option value="">Choose a member…</option>
                {others.map((m) => (
                  <option key={m.user_id} value={m.user_id}>
                    {m.email ?? m.name ?? m.user_id}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className={buttonClass()}
              disabled={!hydrated || !heir}
              onClick={() => setConfirm("transfer")}
            >
              Transfer ownership
            </button>
            <button
              type="button"
              className={buttonClass("danger-outline")}
              disabled={!hydrated}
              onClick={() => setConfirm("delete")}
            >
              Delete the team
            </button>
          </div>
          {confirm === "transfer" ? (
            <ConfirmBox
              label="Transfer ownership"
              confirmText="Transfer"
              busy={transfer.isPending}
              onConfirm={() => transfer.mutate()}
              onCancel={() => setConfirm(null)}
            >
              They become the owner (billing, deleting the team); you stay an admin.
            </ConfirmBox>
          ) : null}
          {confirm === "delete" ? (
            <ConfirmBox
              label="Delete the team"
              confirmText="Delete for good"
              typeToConfirm={{ label: `Type the team's name, ${team.name}, to delete it`, expected: team.name }}
              busy={remove.isPending}
              onConfirm={() => remove.mutate()}
              onCancel={() => setConfirm(null)}
            >
              Delete {team.name} with its library, key, webhooks, follows, publications and activity? This cannot be
              undone. A paid plan must be cancelled first.
            </ConfirmBox>
          ) : null}
          <ErrorText error={transfer.error ?? remove.error} />
        </div>
      ) : null}
    </section>
  );
}
