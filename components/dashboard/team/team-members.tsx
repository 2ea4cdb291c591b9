"use client";

import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { ErrorText, Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { formatDate } from "@/lib/browser/dates";
import { TEAM_ACTIONS, TEAM_ROLES, atLeast, grantableRoles, mayGrant } from "@/lib/roles/ladder";
import {
  changeRole,
  fetchInvitations,
  fetchMembers,
  invite,
  removeMember,
  revokeInvitation,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  teamKey,
  TEAMS_KEY,
  type MemberView,
  type TeamRole,
  type TeamView,
} from "@/lib/browser/teams";

const card = "flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4";

/** The team's members: their roles (changed by admins; an owner's only by an owner), remove, and leave. */
export function MembersSection({ team, me, rolesFrom }: { team: TeamView; me: string; rolesFrom: string | null }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const members = useQuery({ queryKey: [...teamKey(team.id), "members"], queryFn: () => fetchMembers(team.id) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
  // Leaving (or a change to one's own role) changes the workspace line above every page: read it all again.
  const refreshMine = () => {
    void queryClient.invalidateQueries();
    router.refresh();
  };
  return (
    <section aria-labelledby="members-heading" className={card}>
      <h2 id="members-heading" className="text-base font-medium">
        Members
      </h2>
      {members.isPending ? <p className="text-sm text-stone-500">Loading…</p> : null}
      <ErrorText error={members.error} />
      <ul className="flex flex-col divide-y divide-stone-200" aria-label="Members">
        {members.data?.map((member) => (
          <Member
            key={member.user_id}
            team={team}
            member={member}
            me={me}
            soleOwner={member.role === "owner" && (members.data ?? []).filter((m) => m.role === "owner").length === 1}
            onChange={member.user_id === me ? refreshMine : refresh}
            rolesFrom={rolesFrom}
          />
        ))}
      </ul>
      {atLeast(team.role, TEAM_ACTIONS.manageMembers) && !rolesFrom ? <RoleDescriptions /> : null}
    </section>
  );
}

function Member({
  team,
  member,
  me,
  soleOwner,
  onChange,
  rolesFrom,
}: {
  team: TeamView;
  member: MemberView;
  me: string;
  /** The team's only owner: the server refuses to lower or remove them, so neither is offered. */
  soleOwner: boolean;
  onChange: () => void;
  /** The identity provider that sets roles in this team at each sign-in, if one does: no role is chosen here. */
  rolesFrom: string | null;
}) {
  const selectId = useId();
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  const self = member.user_id === me;
  const manage = mayGrant(team.role, member.role) && !soleOwner;
  const chooseRole = manage && !rolesFrom;
  const role = useMutation({
    mutationFn: (next: TeamRole) => changeRole(team.id, member.user_id, next),
    onSuccess: onChange,
  });
  const remove = useMutation({
    mutationFn: () => removeMember(team.id, member.user_id),
    onSuccess: () => {
      setConfirming(false);
      onChange();
    },
  });
  const who = member.email ?? member.name ?? member.user_id;
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="team-member">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 break-all">
          {who}
          {self ? <span className="text-stone-500"> (you)</span> : null}
          <span className="block text-xs text-stone-500">
            Joined {formatDate(member.joined_at)}
            {member.managed_by_identity_provider ? " · role from the identity provider" : ""}
          </span>
        </span>
        <div className="flex flex-wrap items-center gap-2">
          {chooseRole ? (
            <>
              <label htmlFor={selectId} className="sr-only">
                Role of {who}
              </label>
              <select
                id={selectId}
                className={controlClass}
                value={member.role}
                disabled={!hydrated || role.isPending}
                onChange={(event) => role.mutate(event.target.value as TeamRole)}
              >
                {grantableRoles(team.role).map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </option>
                ))}
                {grantableRoles(team.role).includes(member.role) ? null : (
                  <option value={member.role}>{ROLE_LABELS[member.role]}</option>
                )}
              </select>
            </>
          ) : (
            <span className="text-sm text-stone-600">{ROLE_LABELS[member.role]}</span>
          )}
          {(self && !soleOwner) || manage ? (
            <button
              type="button"
              className={buttonClass("danger-outline")}
              disabled={!hydrated}
              onClick={() => setConfirming(true)}
            >
              {self ? "Leave" : "Remove"}
            </button>
          ) : null}
        </div>
      </div>
      {confirming ? (
        <ConfirmBox
          label={self ? "Leave the team" : `Remove ${who}`}
          confirmText={self ? "Leave" : "Remove"}
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
        >
          {self
            ? `Leave ${team.name}? You lose its library at once; what you made stays the team's.`
            : `Remove ${who} from ${team.name}? Their sessions and apps lose the team at once; what they made stays the team's.${
                rolesFrom && member.managed_by_identity_provider
                  ? ` While a group at ${rolesFrom} gives them a role here, their next sign-in through it brings them back.`
                  : ""
              }`}
        </ConfirmBox>
      ) : null}
      <ErrorText error={role.error ?? remove.error} />
    </li>
  );
}

/** Invitations by e-mail (admins): send one, see the pending ones, revoke. */
export function InvitationsSection({ team, rolesFrom }: { team: TeamView; rolesFrom: string | null }) {
  const emailId = useId();
  const roleId = useId();
  const roleHintId = useId();
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<TeamRole>("member");
  const key = [...teamKey(team.id), "invitations"];
  const invitations = useQuery({ queryKey: key, queryFn: () => fetchInvitations(team.id) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  const send = useMutation({
    mutationFn: () => invite(team.id, { email: email.trim(), role }),
    onSuccess: () => {
      setEmail("");
      refresh();
    },
  });
  const revoke = useMutation({ mutationFn: (id: string) => revokeInvitation(team.id, id), onSuccess: refresh });
  if (!atLeast(team.role, TEAM_ACTIONS.manageMembers)) return null;
  return (
    <section aria-labelledby="invitations-heading" className={card}>
      <h2 id="invitations-heading" className="text-base font-medium">
        Invitations
      </h2>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (email.trim()) send.mutate();
        }}
      >
        <label htmlFor={emailId} className="flex min-w-0 flex-1 basis-56 flex-col gap-1 text-sm">
          E-mail
          <input
            id={emailId}
            type="email"
            required
            maxLength={254}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="name@example.com"
            className={controlClass}
          />
        </label>
        <label htmlFor={roleId} className="flex flex-col gap-1 text-sm">
          Role
          <select
            id={roleId}
            className={controlClass}
            value={role}
            aria-describedby={roleHintId}
            onChange={(event) => setRole(event.target.value as TeamRole)}
          >
            {grantableRoles(team.role).map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </label>
        <p id={roleHintId} className="basis-full text-xs text-stone-600" data-testid="invite-role-hint">
          {ROLE_LABELS[role]}: {ROLE_DESCRIPTIONS[role]}.
          {rolesFrom
            ? ` The role holds until their first sign-in through ${rolesFrom}, which sets it from their groups.`
            : ""}
        </p>
        <button type="submit" className={buttonClass("primary", "lg")} disabled={!hydrated || send.isPending}>
          {send.isPending ? "Sending…" : "Invite"}
        </button>
      </form>
      {send.isSuccess ? (
        <Notice tone="success">
          Invitation sent: the link works once, for that address only. Without a mail server it is in the server log.
        </Notice>
      ) : null}
      <ErrorText error={send.error ?? revoke.error ?? invitations.error} />
      {invitations.data?.length === 0 ? <p className="text-sm text-stone-500">No pending invitations.</p> : null}
      <ul className="flex flex-col divide-y divide-stone-200" aria-label="Pending invitations">
        {invitations.data?.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span className="min-w-0 break-all">
              {invitation.email} · {ROLE_LABELS[invitation.role]}
              <span className="block text-xs text-stone-500">Until {formatDate(invitation.expires_at)}</span>
            </span>
            <button
              type="button"
              className={buttonClass()}
              disabled={!hydrated || revoke.isPending}
              onClick={() => revoke.mutate(invitation.id)}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What each role may do, beside the members' roles an admin chooses. */
function RoleDescriptions() {
  return (
    <details className="text-sm" data-testid="role-descriptions">
      <summary className="cursor-pointer text-stone-700">What each role may do</summary>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {[...TEAM_ROLES].reverse().map((role) => (
          <div key={role} className="contents">
            <dt className="font-medium">{ROLE_LABELS[role]}</dt>
            <dd className="text-stone-600">{ROLE_DESCRIPTIONS[role]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
