"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { buttonClass } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/notice";
import { formatDate, formatDateTime } from "@/lib/browser/dates";
import {
  auditExportUrl,
  auditSentence,
  fetchAudit,
  fetchUsage,
  shortDuration,
  teamKey,
  type TeamView,
  usageRows,
} from "@/lib/browser/teams";

const card = "flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4";

/** This period's usage: the team's, and each member's, key's and the rest's, which add up to it (admins). */
export function UsageSection({ team }: { team: TeamView }) {
  const usage = useQuery({ queryKey: [...teamKey(team.id), "usage"], queryFn: () => fetchUsage(team.id) });
  return (
    <section aria-labelledby="usage-heading" className={card}>
      <h2 id="usage-heading" className="text-base font-medium">
        Usage this period
      </h2>
      <ErrorText error={usage.error} />
      {usage.data ? (
        <>
          <p className="text-sm text-stone-600">
            {shortDuration(usage.data.used_seconds)} charged to the team, {formatDate(usage.data.period_start)} to{" "}
            {formatDate(usage.data.period_end)}.
          </p>
          <ul className="flex flex-col divide-y divide-stone-200 text-sm" aria-label="Usage by member and key">
            {usageRows(usage.data).map((row) => (
              <li key={row.id} className="flex flex-wrap justify-between gap-2 py-2">
                <span className="min-w-0 break-all">
                  {row.label}
                  {row.detail ? <span className="text-stone-500"> · {row.detail}</span> : null}
                </span>
                <span className="text-stone-600">
                  {row.seconds < 0 ? `−${shortDuration(-row.seconds)}` : shortDuration(row.seconds)}
                  {row.requests === null ? null : ` · ${row.requests} ${row.requests === 1 ? "request" : "requests"}`}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** Who did what in the team, newest first, a page at a time (admins). */
export function AuditSection({ team }: { team: TeamView }) {
  const audit = useInfiniteQuery({
    queryKey: [...teamKey(team.id), "audit"],
    queryFn: ({ pageParam }) => fetchAudit(team.id, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const events = audit.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <section aria-labelledby="audit-heading" className={card}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="audit-heading" className="text-base font-medium">
          Activity
        </h2>
        <div className="flex flex-wrap gap-2" aria-label="Download the whole trail">
          <a className={buttonClass("secondary", "sm")} href={auditExportUrl(team.id, "csv")} download>
            Download CSV
          </a>
          <a className={buttonClass("secondary", "sm")} href={auditExportUrl(team.id, "jsonl")} download>
            Download JSON Lines
          </a>
        </div>
      </div>
      <ErrorText error={audit.error} />
      <ol className="flex flex-col divide-y divide-stone-200 text-sm" aria-label="Audit trail">
        {events.map((event) => (
          <li key={event.id} className="flex flex-col gap-0.5 py-2" data-testid="audit-event">
            <span className="break-words">{auditSentence(event)}</span>
            <span className="text-xs text-stone-500">
              {formatDateTime(event.at)} · <code>{event.action}</code>
            </span>
          </li>
        ))}
      </ol>
      {audit.hasNextPage ? (
        <button
          type="button"
          className={buttonClass("secondary", "md", "self-start")}
          disabled={audit.isFetchingNextPage}
          onClick={() => void audit.fetchNextPage()}
        >
          {audit.isFetchingNextPage ? "Loading…" : "Show older"}
        </button>
      ) : null}
    </section>
  );
}
