"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { focusRing } from "@/components/ui/focus";

const items = [
  { href: "/dashboard", label: "Transcribe" },
  { href: "/dashboard/history", label: "History" },
  { href: "/dashboard/imports", label: "Imports" },
  { href: "/dashboard/published", label: "Published" },
  { href: "/dashboard/billing", label: "Billing" },
  { href: "/dashboard/keys", label: "API key" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
];

/** One line on wide screens; on a phone it wraps, so every page (and the current one) is in sight without scrolling sideways. */
export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="col-span-2 -mx-1 md:col-span-1 md:mx-0">
      <ul className="flex flex-wrap gap-1 p-1" data-testid="dashboard-nav">
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={pathname === item.href ? "page" : undefined}
              className={`flex items-center rounded-md px-2.5 py-1.5 text-sm whitespace-nowrap hover:bg-stone-200 aria-[current=page]:bg-stone-900 aria-[current=page]:text-white max-sm:min-h-11 sm:px-3 ${focusRing}`}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
