"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const items = [
  { href: "/dashboard", label: "Transcribe" },
  { href: "/dashboard/history", label: "History" },
  { href: "/dashboard/imports", label: "Imports" },
  { href: "/dashboard/published", label: "Published" },
  { href: "/dashboard/billing", label: "Billing" },
  { href: "/dashboard/keys", label: "API key" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
];

/** One line at every width: on a phone it scrolls sideways inside itself, never the page. */
export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="col-span-2 -mx-1 overflow-x-auto md:col-span-1 md:mx-0">
      <ul className="flex w-max gap-1 p-1">
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={pathname === item.href ? "page" : undefined}
              className="block rounded-md px-3 py-1.5 text-sm whitespace-nowrap hover:bg-stone-200 aria-[current=page]:bg-stone-900 aria-[current=page]:text-white"
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
