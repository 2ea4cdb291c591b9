"use client";

import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ALERTS_KEY,
  createAlert,
  deleteAlert,
  fetchAlerts,
  fetchMatches,
  markAllRead,
  matchesKey,
  momentClock,
  setPaused,
  type AlertView,
} from "@/lib/browser/alerts";
import { ErrorText } from "@/components/ui/notice";
import { buttonClass } from "@/components/ui/button";
import { formatDateTime } from "@/lib/browser/dates";
import { useHydrated } from "@/components/ui/use-hydrated";

const button = buttonClass();
const control = "rounded-md border border-stone-300 px-3 py-2 text-sm";

/** One alert's inbox: its matches, newest first, each transcript's moments linked; unread ones marked. */
function Inbox({ alert }: { alert: AlertView }) {
  const queryClient = useQueryClient();
  const matches = useQuery({ queryKey: matchesKey(alert.id), queryFn: () => fetchMatches(alert.id) });
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

/** The account's alerts: save one, pause, delete; each one's unread count and inbox; its secret Atom feed. */
export function AlertsPanel() {
  const queryId = useId();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const [query, setQuery] = useState("");
  const [scope, setScope] = useState<"library" | "public">("library");
  const [email, setEmail] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const alerts = useQuery({ queryKey: ALERTS_KEY, queryFn: fetchAlerts });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
  const create = useMutation({
    mutationFn: createAlert,
    onSuccess: () => {
      setQuery("");
      refresh();
    },
  });
  const pause = useMutation({ mutationFn: (a: AlertView) => setPaused(a.id, !a.paused), onSuccess: refresh });
  const remove = useMutation({ mutationFn: deleteAlert, onSuccess: refresh });
  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({ query, scope: { kind: scope }, email });
        }}
      >
        <label htmlFor={queryId} className="text-sm font-medium">
          Words to watch for
        </label>
        <input
          id={queryId}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder='"interest rates" inflation -bitcoin'
          className={control}
          required
        />
        <div className="flex flex-wrap items-center gap-4 text-sm">
          <label className="flex items-center gap-2">
            In
            <select
              value={scope}
              onChange={(event) => setScope(event.target.value as "library" | "public")}
              className={control}
            >
              <option value="library">my library</option>
              <option value="public">every published transcript</option>
            </select>
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={email} onChange={(event) => setEmail(event.target.checked)} />
            Also e-mail me
          </label>
          <button type="submit" className={button} disabled={!hydrated || create.isPending}>
            Save alert
          </button>
        </div>
        <ErrorText error={create.error} />
      </form>
      {alerts.data ? (
        <p className="text-sm" data-testid="alerts-unread">
          {alerts.data.unread === 0 ? "Nothing unread." : `${alerts.data.unread} unread`}
        </p>
      ) : null}
      <ErrorText error={alerts.error ?? pause.error ?? remove.error} />
      {alerts.data?.alerts.length === 0 ? <p className="text-sm text-stone-500">No alerts yet.</p> : null}
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
                className="text-left font-medium"
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
              <span className="text-sm text-stone-500">
                {alert.scope.kind === "public"
                  ? "Published transcripts"
                  : alert.scope.kind === "library"
                    ? "Library"
                    : alert.scope.kind}
                {alert.paused ? " · paused" : ""}
              </span>
            </div>
            <div className="flex flex-wrap gap-2 text-sm">
              <button type="button" className={button} onClick={() => pause.mutate(alert)}>
                {alert.paused ? "Resume" : "Pause"}
              </button>
              <button type="button" className={button} onClick={() => remove.mutate(alert.id)}>
                Delete
              </button>
              <a className="self-center text-emerald-800 underline" href={alert.feed_url}>
                Atom feed (keep the link private)
              </a>
            </div>
            {open === alert.id ? <Inbox alert={alert} /> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
