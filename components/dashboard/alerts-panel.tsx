"use client";

import { useId, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ALERTS_KEY,
  ALERTS_POLL_MS,
  createAlert,
  deleteAlert,
  fetchAlerts,
  fetchMatches,
  markAllRead,
  matchesKey,
  momentClock,
  scopeLabel,
  scopeOptions,
  scopeRequest,
  setPaused,
  type AlertMatching,
  type AlertScopeChoices,
  type AlertView,
} from "@/lib/browser/alerts";
import { AlertMatchingFields, AlertPreview } from "@/components/dashboard/alert-matching";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { ErrorText } from "@/components/ui/notice";
import { buttonClass } from "@/components/ui/button";
import { formatDateTime } from "@/lib/browser/dates";
import { useHydrated, useTypedBeforeHydration } from "@/components/ui/use-hydrated";

const button = buttonClass();
const control = "rounded-md border border-stone-300 px-3 py-2 text-sm";

/** The follows a follows alert watches: one checkbox each, in a box that scrolls when there are many. */
function FollowPicker({
  follows,
  chosen,
  onChange,
  disabled,
}: {
  follows: AlertScopeChoices["follows"];
  chosen: string[];
  onChange: (ids: string[]) => void;
  disabled: boolean;
}) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 text-sm">
      <legend className="mb-1 font-medium">Shows to watch</legend>
      <ul className="flex max-h-60 flex-col gap-1 overflow-y-auto rounded-md border border-stone-200 p-2">
        {follows.map((follow) => (
          <li key={follow.id}>
            <label className="flex min-w-0 items-start gap-2 py-1">
              <input
                type="checkbox"
                name="follow_ids"
                value={follow.id}
                className="mt-0.5 shrink-0"
                checked={chosen.includes(follow.id)}
                disabled={disabled}
                onChange={(event) =>
                  onChange(event.target.checked ? [...chosen, follow.id] : chosen.filter((id) => id !== follow.id))
                }
              />
              <span className="min-w-0 break-words">{follow.title}</span>
            </label>
          </li>
        ))}
      </ul>
      {chosen.length === 0 ? <p className="text-stone-500">Tick at least one show.</p> : null}
    </fieldset>
  );
}

/** One alert's inbox: its matches, newest first, each transcript's moments linked; unread ones marked. */
function Inbox({ alert }: { alert: AlertView }) {
  const queryClient = useQueryClient();
  const matches = useQuery({
    queryKey: matchesKey(alert.id),
    queryFn: () => fetchMatches(alert.id),
    refetchInterval: ALERTS_POLL_MS,
  });
  const read = useMutation({
    mutationFn: () => markAllRead(alert.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
  if (matches.isPending) return <p className="text-sm text-stone-500">Loading…</p>;
  return (
    <div className="flex flex-col gap-3">
      <ErrorText error={matches.error ?? read.error} />
      {matches.data?.matches.length === 0 ? <p className="text-sm text-stone-500">No matches yet.</p> : null}
      <ul className="flex flex-col gap-3" aria-label={`Matches of ${alert.name}`}>
        {matches.data?.matches.map((m) => (
          <li key={m.id} data-testid="alert-match" className="rounded-md border border-stone-200 p-3 text-sm">
            <p className="font-medium">
              {m.read ? null : <span className="mr-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900">new</span>}
              {m.title ?? m.transcript_id}{" "}
              <span className="font-normal text-stone-500">{formatDateTime(m.matched_at)}</span>
            </p>
            <ul className="mt-1 flex flex-col gap-1">
              {m.moments.map((moment) => {
                const href = moment.links.viewer ?? moment.links.page ?? moment.links.source;
                const at = `${momentClock(moment.start)} · line ${moment.segment_index + 1}`;
                return (
                  <li key={`${moment.segment_index}-${moment.start}`}>
                    {href ? (
                      <a className="text-emerald-800 underline" href={href}>
                        {at}
                      </a>
                    ) : (
                      at
                    )}{" "}
                    {moment.text}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
      {matches.data && matches.data.unread > 0 ? (
        <button
          type="button"
          className={`${button} self-start`}
          onClick={() => read.mutate()}
          disabled={read.isPending}
        >
          Mark all read
        </button>
      ) : null}
    </div>
  );
}

/** The alert's secret Atom feed: an address to give a feed reader, not a page to open. */
function FeedAddress({ alert }: { alert: AlertView }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex min-w-0 flex-col gap-1 text-sm">
      <label htmlFor={id} className="text-stone-600">
        Feed for a feed reader (Atom): paste this address into one. Keep it private: anyone with it reads the matches.
      </label>
      <div className="flex min-w-0 gap-2">
        <input
          id={id}
          readOnly
          value={alert.feed_url}
          onFocus={(event) => event.currentTarget.select()}
          className={`${control} min-w-0 flex-1 font-mono text-xs`}
        />
        <button
          type="button"
          className={button}
          onClick={() =>
            void navigator.clipboard?.writeText(alert.feed_url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}

/** What the card says of an alert besides its name: where it watches, how it matches, whether it mails. */
function alertFacts(alert: AlertView, choices: AlertScopeChoices): string {
  return [
    scopeLabel(alert.scope, choices),
    alert.mode === "meaning" ? "by meaning" : "by words",
    alert.email ? "e-mail on" : "e-mail off",
    ...(alert.paused ? ["paused"] : []),
  ].join(" · ");
}

/** A person's own alerts over the team's library, listed with the team's: kept, and managed, in their account. */
function OwnOverTeam({ alerts }: { alerts: AlertScopeChoices["ownOverTeam"] }) {
  if (alerts.length === 0) return null;
  return (
    <section aria-labelledby="own-over-team" className="flex flex-col gap-2 text-sm">
      <h2 id="own-over-team" className="font-medium">
        Your own alerts over this team&apos;s library
      </h2>
      <p className="text-stone-600">
        Saved from your own account, so they are kept there: switch to it to read their matches, pause or delete them.
      </p>
      <ul className="flex flex-col gap-1" data-testid="own-over-team">
        {alerts.map((alert) => (
          <li key={alert.id} className="break-words">
            {alert.name}
            <span className="text-stone-500">
              {alert.unread > 0 ? ` · ${alert.unread} unread` : ""}
              {alert.paused ? " · paused" : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The account's alerts: save one (over its library, a team's, chosen follows' episodes or every published
 * transcript: `choices`, read on the server), pause, delete; each one's unread count and inbox; its secret Atom feed.
 * Its controls wait for hydration: a choice made before would be shown but not sent. `mailToLog`: the server has no
 * mail server, so "e-mail me" writes the mail to its log, and the form says so.
 */
export function AlertsPanel({ choices, mailToLog }: { choices: AlertScopeChoices; mailToLog: boolean }) {
  const queryId = useId();
  const scopeId = useId();
  const mailNoteId = useId();
  const queryRef = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const [query, setQuery] = useState("");
  useTypedBeforeHydration(queryRef, query, setQuery);
  const [scope, setScope] = useState("library");
  const [followIds, setFollowIds] = useState<string[]>([]);
  const [email, setEmail] = useState(false);
  const [matching, setMatching] = useState<AlertMatching>({ mode: "words" });
  const [open, setOpen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const options = scopeOptions(choices);
  const alerts = useQuery({ queryKey: ALERTS_KEY, queryFn: fetchAlerts, refetchInterval: ALERTS_POLL_MS });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
  const create = useMutation({
    mutationFn: createAlert,
    // Words typed while the save was pending are the next alert's: only what was saved is cleared.
    onSuccess: (_alert, saved) => {
      setQuery((current) => (current === saved.query ? "" : current));
      refresh();
    },
  });
  const pause = useMutation({ mutationFn: (a: AlertView) => setPaused(a.id, !a.paused), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: deleteAlert,
    onSuccess: () => {
      setDeleting(null);
      refresh();
    },
  });
  const noShows = scope === "follows" && followIds.length === 0;
  const request = { query, scope: scopeRequest(scope, followIds), email, ...matching };
  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex min-w-0 flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(request);
        }}
      >
        <label htmlFor={queryId} className="text-sm font-medium">
          {matching.mode === "words" ? "Words to watch for" : "A question or sentence to watch for"}
        </label>
        <input
          id={queryId}
          ref={queryRef}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder={
            matching.mode === "words" ? '"interest rates" inflation -bitcoin' : "when will borrowing get cheaper"
          }
          className={`${control} min-w-0`}
          required
        />
        <div className="flex min-w-0 flex-wrap items-center gap-x-4 gap-y-3 text-sm">
          <label htmlFor={scopeId} className="shrink-0">
            In
          </label>
          <select
            id={scopeId}
            value={scope}
            onChange={(event) => setScope(event.target.value)}
            className={`${control} min-w-0 max-w-full flex-1 sm:flex-none`}
            disabled={!hydrated}
          >
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <AlertMatchingFields matching={matching} onChange={setMatching} disabled={!hydrated} />
        {scope === "follows" ? (
          <FollowPicker follows={choices.follows} chosen={followIds} onChange={setFollowIds} disabled={!hydrated} />
        ) : null}
        <div className="flex flex-wrap items-center gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={email}
              disabled={!hydrated}
              onChange={(event) => setEmail(event.target.checked)}
              aria-describedby={mailToLog ? mailNoteId : undefined}
            />
            Also e-mail me
          </label>
          <button type="submit" className={button} disabled={!hydrated || create.isPending || noShows}>
            {create.isPending ? "Saving…" : "Save alert"}
          </button>
        </div>
        {mailToLog ? (
          <p id={mailNoteId} className="text-sm text-stone-600" data-testid="alert-mail-note">
            This server has no mail server set (SMTP_URL), so its mails are written to the server&apos;s log, not sent:
            ask whoever runs it.
          </p>
        ) : null}
        <AlertPreview request={request} disabled={!hydrated || noShows} />
        <ErrorText error={create.error} />
      </form>
      {alerts.data ? (
        <p className="text-sm" data-testid="alerts-unread">
          {alerts.data.unread === 0 ? "Nothing unread." : `${alerts.data.unread} unread`}
        </p>
      ) : null}
      <ErrorText error={alerts.error ?? pause.error ?? remove.error} />
      {alerts.data?.alerts.length === 0 ? <p className="text-sm text-stone-500">No alerts yet.</p> : null}
      <OwnOverTeam alerts={choices.ownOverTeam} />
      <ul className="flex flex-col gap-3" aria-label="Alerts">
        {alerts.data?.alerts.map((alert) => (
          <li
            key={alert.id}
            data-testid="alert"
            className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-4"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <button
                type="button"
                className="min-w-0 break-words text-left font-medium"
                aria-expanded={open === alert.id}
                onClick={() => setOpen(open === alert.id ? null : alert.id)}
              >
                {alert.name}
                {alert.unread > 0 ? (
                  <span
                    className="ml-2 rounded-full bg-amber-500 px-2 text-xs text-white"
                    aria-label={`${alert.unread} unread`}
                  >
                    {alert.unread}
                  </span>
                ) : null}
              </button>
              <span className="text-sm text-stone-500" data-testid="alert-facts">
                {alertFacts(alert, choices)}
              </span>
            </div>
            <div className="flex flex-wrap gap-2 text-sm">
              <button type="button" className={button} onClick={() => pause.mutate(alert)}>
                {alert.paused ? "Resume" : "Pause"}
              </button>
              <button
                type="button"
                className={button}
                onClick={() => setDeleting(alert.id)}
                disabled={deleting === alert.id}
              >
                Delete
              </button>
            </div>
            {deleting === alert.id ? (
              <ConfirmBox
                label={`Delete ${alert.name}`}
                confirmText="Delete alert"
                busy={remove.isPending}
                onConfirm={() => remove.mutate(alert.id)}
                onCancel={() => setDeleting(null)}
              >
                Delete the alert &ldquo;{alert.name}&rdquo;? Its matches go with it and its feed stops; this cannot be
                undone.
              </ConfirmBox>
            ) : null}
            <FeedAddress alert={alert} />
            {open === alert.id ? <Inbox alert={alert} /> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
