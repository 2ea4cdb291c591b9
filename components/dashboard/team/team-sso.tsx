"use client";

import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CopyButton } from "@/components/dashboard/api-key-panel";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { ErrorText, Notice } from "@/components/ui/notice";
import { ScimToken } from "@/components/dashboard/team/team-scim";
import { useHydrated } from "@/components/ui/use-hydrated";
import { formatDate } from "@/lib/browser/dates";
import { ROLE_LABELS, teamKey, type TeamView } from "@/lib/browser/teams";
import {
  addDomain,
  deleteDomain,
  fetchDomains,
  fetchScimToken,
  setRequireSso,
  ssoSettingsFor,
  verifyDomain,
  verifyProblem,
  type DomainRole,
  type TeamDomainView,
} from "@/lib/browser/team-sso";

const card = "flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4";
const part = "flex flex-col gap-3 border-t border-stone-200 pt-3";
const DOMAIN_ROLES: DomainRole[] = ["member", "viewer", "admin"];

/**
 * The team's single sign-on settings: its verified domains (admins), requiring sign-in through the identity
 * provider (the owner, where the server has a provider) and its SCIM token (the owner). Nothing for other roles.
 */
export function SingleSignOnSection({
  team,
  provider,
  scim,
}: {
  team: TeamView & { require_sso?: boolean };
  /** The identity provider's name (OIDC_NAME) where the server has one. */
  provider: string | null;
  /** Whether the team had a SCIM token when the page was read (an owner's view follows their own changes). */
  scim: boolean;
}) {
  const shown = ssoSettingsFor(team.role, provider !== null);
  const token = useQuery({
    queryKey: [...teamKey(team.id), "scim"],
    queryFn: () => fetchScimToken(team.id),
    enabled: shown.scim,
  });
  const provisioned = token.data ? token.data.exists : scim;
  if (!shown.domains && !shown.requireSso && !shown.scim) return null;
  return (
    <section aria-labelledby="team-sso-heading" className={card} data-testid="team-sso">
      <h2 id="team-sso-heading" className="text-base font-medium">
        Single sign-on
      </h2>
      {shown.domains ? <Domains team={team} provisioned={provisioned} /> : null}
      {shown.requireSso && provider ? <RequireSso team={team} provider={provider} /> : null}
      {shown.scim ? <ScimToken team={team} className={part} /> : null}
    </section>
  );
}

function Domains({ team, provisioned }: { team: TeamView; provisioned: boolean }) {
  const queryClient = useQueryClient();
  const queryKey = [...teamKey(team.id), "domains"];
  const domains = useQuery({ queryKey, queryFn: () => fetchDomains(team.id) });
  const [deleting, setDeleting] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey });
  const remove = useMutation({
    mutationFn: (domain: string) => deleteDomain(team.id, domain),
    onSuccess: () => {
      setDeleting(null);
      refresh();
    },
  });
  return (
    <div className="flex flex-col gap-3" data-testid="team-domains">
      <h3 className="text-sm font-medium">Verified domains</h3>
      <p className="text-sm text-stone-600">
        People who sign in with a verified e-mail address of a verified domain join the team without an invitation, in
        the role chosen for the domain. Prove the team holds a domain by publishing a TXT record in its DNS.
      </p>
      <ErrorText error={domains.error} />
      {domains.data && domains.data.length === 0 ? <p className="text-sm text-stone-500">No domains yet.</p> : null}
      {domains.data && domains.data.length > 0 ? (
        <ul className="flex flex-col divide-y divide-stone-200 text-sm" aria-label="Domains">
          {domains.data.map((domain) => (
            <DomainRow
              key={domain.domain}
              team={team}
              domain={domain}
              onVerified={refresh}
              onDelete={() => setDeleting(domain.domain)}
            />
          ))}
        </ul>
      ) : null}
      {deleting ? (
        <ConfirmBox
          label="Delete the domain"
          confirmText="Delete"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
        >
          Delete {deleting}? People of the domain no longer join by it; those who joined stay members.
        </ConfirmBox>
      ) : null}
      <ErrorText error={remove.error} />
      {provisioned ? (
        <p className="text-sm text-stone-600" data-testid="domains-scim">
          This team&apos;s members come from your identity provider by SCIM, so no domain is added here: a domain would
          let in people the provider does not list. Add people in the provider instead.
        </p>
      ) : (
        <AddDomain team={team} onAdded={refresh} />
      )}
    </div>
  );
}

function DomainRow({
  team,
  domain,
  onVerified,
  onDelete,
}: {
  team: TeamView;
  domain: TeamDomainView;
  onVerified: () => void;
  onDelete: () => void;
}) {
  const hydrated = useHydrated();
  const verify = useMutation({ mutationFn: () => verifyDomain(team.id, domain.domain), onSuccess: onVerified });
  const problem = verify.error ? verifyProblem(verify.error) : null;
  const verified = domain.status === "verified";
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="team-domain">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="font-medium break-all">{domain.domain}</span>
          <span className="text-xs text-stone-600">
            {verified ? (
              <strong className="text-emerald-800">Verified</strong>
            ) : (
              <strong className="text-amber-800">Not verified yet</strong>
            )}{" "}
            · joins as {ROLE_LABELS[domain.role].toLowerCase()} ·{" "}
            {domain.verified_at
              ? `verified ${formatDate(domain.verified_at)}`
              : `added ${formatDate(domain.created_at)}`}
          </span>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonClass(verified ? "secondary" : "primary", "sm")}
            disabled={!hydrated || verify.isPending}
            onClick={() => verify.mutate()}
            aria-label={`${verified ? "Check again" : "Verify"} ${domain.domain}`}
          >
            {verify.isPending ? "Checking…" : verified ? "Check again" : "Verify"}
          </button>
          <button
            type="button"
            className={buttonClass("secondary", "sm")}
            disabled={!hydrated}
            onClick={onDelete}
            aria-label={`Delete ${domain.domain}`}
          >
            Delete
          </button>
        </div>
      </div>
      {verified ? null : (
        <dl
          className="grid grid-cols-1 gap-x-3 gap-y-1 rounded-md bg-stone-50 p-3 text-xs sm:grid-cols-[auto_1fr]"
          aria-label={`TXT record for ${domain.domain}`}
          data-testid="domain-record"
        >
          <dt className="text-stone-600">Type</dt>
          <dd className="font-mono">{domain.verification.record_type}</dd>
          <dt className="text-stone-600">Name</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 font-mono break-all" data-testid="domain-record-name">
              {domain.verification.name}
            </code>
          </dd>
          <dt className="text-stone-600">Value</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 font-mono break-all" data-testid="domain-record-value">
              {domain.verification.value}
            </code>
            <CopyButton text={domain.verification.value} label="Copy value" testId="copy-domain-record" />
          </dd>
        </dl>
      )}
      {problem ? (
        <Notice tone="error" data-testid="domain-verify-problem">
          <strong className="block">{problem.title}</strong>
          <span className="break-words">{problem.detail}</span>
        </Notice>
      ) : null}
      {verify.isSuccess && verified ? (
        <p className="text-xs text-emerald-800" role="status">
          The record is in place.
        </p>
      ) : null}
    </li>
  );
}

function AddDomain({ team, onAdded }: { team: TeamView; onAdded: () => void }) {
  const domainId = useId();
  const roleId = useId();
  const hydrated = useHydrated();
  const [domain, setDomain] = useState("");
  const [role, setRole] = useState<DomainRole>("member");
  const add = useMutation({
    mutationFn: () => addDomain(team.id, { domain: domain.trim(), role }),
    onSuccess: () => {
      setDomain("");
      onAdded();
    },
  });
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (domain.trim()) add.mutate();
      }}
    >
      <label htmlFor={domainId} className="flex min-w-0 flex-1 basis-48 flex-col gap-1 text-sm">
        Domain
        <input
          id={domainId}
          required
          maxLength={253}
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
          placeholder="example.com"
          autoCapitalize="none"
          spellCheck={false}
          className={`${controlClass} font-mono`}
        />
      </label>
      <label htmlFor={roleId} className="flex flex-col gap-1 text-sm">
        Joins as
        <select
          id={roleId}
          className={controlClass}
          value={role}
          onChange={(event) => setRole(event.target.value as DomainRole)}
        >
          {DOMAIN_ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass("primary", "md")} disabled={!hydrated || add.isPending}>
        {add.isPending ? "Adding…" : "Add domain"}
      </button>
      <div className="basis-full empty:hidden">
        <ErrorText error={add.error} />
      </div>
    </form>
  );
}

function RequireSso({ team, provider }: { team: TeamView & { require_sso?: boolean }; provider: string }) {
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (next: boolean) => setRequireSso(team.id, next),
    onSuccess: (answer) => {
      // The answer is the team as it now is: the box shows it at once, not after the page's team is read again.
      queryClient.setQueryData(teamKey(team.id), answer);
      void queryClient.invalidateQueries({ queryKey: teamKey(team.id) });
    },
  });
  // What the person asked for, set in the click's own render: the mutation's pending state arrives a tick later,
  // and a controlled box would show the old value until then.
  const [asked, setAsked] = useState<boolean | null>(null);
  const on = asked ?? team.require_sso === true;
  return (
    <div className={part} data-testid="team-require-sso">
      <h3 className="text-sm font-medium">Require single sign-on</h3>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          checked={on}
          disabled={!hydrated || toggle.isPending || team.require_sso === undefined}
          onChange={(event) => {
            setAsked(event.target.checked);
            toggle.mutate(event.target.checked, { onSettled: () => setAsked(null) });
          }}
        />
        <span>Members act in this team only after signing in through {provider}</span>
      </label>
      <p className="text-sm text-stone-600">
        A session from an e-mail link or another sign-in is then refused in this team (the person sees their own
        account); API keys keep working. If {provider} cannot let you in, turn it off with your personal API key, or ask
        the server&apos;s operator to run{" "}
        <code className="font-mono break-all">npm run team-sso -- {team.slug} off</code> (docs/sign-in.md, &ldquo;The
        owner&apos;s way back in&rdquo;).
      </p>
      <ErrorText error={toggle.error} />
    </div>
  );
}
