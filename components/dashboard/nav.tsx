"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

// Pages not built yet are listed but not linked, so the layout is final and nothing 404s.
const items = [
  { href: "/dashboard", label: "Transcribe", ready: true },
  { href: "/dashboard/history", label: "History", ready: true },
  { href: "/dashboard/imports", label: "Imports", ready: true },
  { href: "/dashboard/published", label: "Published", ready: true },
  { href: "/dashboard/billing", label: "Billing", ready: true },
  { href: "/dashboard/keys", label: "API key", ready: true },
];

export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="flex flex-wrap gap-1">
      {items.map((item) =>
        item.ready ? (
          <Link
            key={item.href}
            href={item.href}
            aria-current={pathname === item.href ? "page" : undefined}
            className="rounded-md px-3 py-1.5 text-sm hover:bg-stone-200 aria-[current=page]:bg-stone-900 aria-[current=page]:text-white"
          >
            {item.label}
          </Link>
        ) : (
          <span key={item.href} className="cursor-not-allowed rounded-md px-3 py-1.5 text-sm text-stone-400" title="Coming soon">
            {item.label}
          </span>
        ),
      )}
    </nav>
  );
}
