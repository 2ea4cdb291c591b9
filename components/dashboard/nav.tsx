"use client";

import { useEffect, useId, useRef, useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { ALERTS_KEY, ALERTS_POLL_MS, fetchAlerts } from "@/lib/browser/alerts";
import { focusRing } from "@/components/ui/focus";
import { useHydrated } from "@/components/ui/use-hydrated";

const items = [
  { href: "/dashboard", label: "Transcribe" },
  { href: "/dashboard/history", label: "History" },
  { href: "/dashboard/imports", label: "Imports" },
  { href: "/dashboard/batches", label: "Batches" },
  { href: "/dashboard/published", label: "Published" },
  { href: "/dashboard/billing", label: "Billing" },
  { href: "/dashboard/keys", label: "API key" },
  { href: "/dashboard/alerts", label: "Alerts" },
  { href: "/dashboard/exports", label: "Exports" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/team", label: "Team" },
];

/** The unread alert matches of the workspace, asked again while the page is open; null where it may not read them. */
function useUnreadAlerts(enabled: boolean): number | null {
  const alerts = useQuery({
    queryKey: ALERTS_KEY,
    queryFn: fetchAlerts,
    enabled,
    refetchInterval: ALERTS_POLL_MS,
  });
  return enabled ? (alerts.data?.unread ?? null) : null;
}

function UnreadBadge({ count }: { count: number }) {
  return (
    <span
      data-testid="nav-unread"
      className="ml-1.5 rounded-full bg-amber-100 px-1.5 text-xs font-medium text-amber-900"
    >
      {count}
      <span className="sr-only"> unread</span>
    </span>
  );
}

/**
 * One line on wide screens. On a phone the pages are behind one button that names the current page (a
 * disclosure, not two rows of links above every page's content); it closes on Escape, on a click outside
 * and on choosing a page.
 */
export function DashboardNav({ alerts }: { alerts: boolean }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const listId = useId();
  // Its only handler is React's: inactive, and shown so, until the page has hydrated.
  const hydrated = useHydrated();
  const current = items.find((item) => item.href === pathname)?.label ?? "Menu";
  // The server renders no count; a count the client already holds (another panel asked first) waits for hydration, so
  // the first client render matches the server's.
  const fetchedUnread = useUnreadAlerts(alerts);
  const unread = hydrated ? fetchedUnread : null;

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  return (
    <nav
      ref={root}
      aria-label="Dashboard"
      className="relative max-lg:ml-auto lg:flex-1"
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !open) return;
        event.preventDefault();
        setOpen(false);
        toggle.current?.focus();
      }}
    >
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        disabled={!hydrated}
        className={`flex min-h-11 items-center gap-1.5 rounded-md border border-stone-300 bg-white px-3 text-sm disabled:cursor-not-allowed disabled:opacity-50 lg:hidden ${focusRing}`}
        data-testid="dashboard-menu"
      >
        {current}
        {unread ? <UnreadBadge count={unread} /> : null}
        <span aria-hidden="true" className="text-xs">
          {open ? "▴" : "▾"}
        </span>
      </button>
      <ul
        id={listId}
        className={`flex gap-0.5 max-lg:absolute max-lg:right-0 max-lg:z-40 max-lg:mt-1 max-lg:w-52 max-lg:flex-col max-lg:rounded-md max-lg:border max-lg:border-stone-200 max-lg:bg-white max-lg:p-1 max-lg:shadow-lg lg:flex-wrap ${open ? "" : "max-lg:hidden"}`}
        data-testid="dashboard-nav"
      >
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={pathname === item.href ? "page" : undefined}
              onClick={() => setOpen(false)}
              className={`flex items-center rounded-md px-2 py-1.5 text-sm whitespace-nowrap hover:bg-stone-200 aria-[current=page]:bg-stone-900 aria-[current=page]:text-white max-lg:min-h-11 ${focusRing}`}
            >
              {item.label}
              {item.href === "/dashboard/alerts" && unread ? <UnreadBadge count={unread} /> : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
