import Link from "next/link";

/** The header of pages outside the dashboard (404, sign-in): the brand and the ways in. */
export function SiteHeader() {
  return (
    <header className="border-b border-stone-200 bg-white">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <BrandLink />
        <nav aria-label="Site" className="flex gap-1 text-sm">
          <Link href="/explore" className="rounded-md px-2 py-1.5 hover:bg-stone-100 sm:px-3">Explore</Link>
          <Link href="/docs" className="rounded-md px-2 py-1.5 hover:bg-stone-100 sm:px-3">API</Link>
          <Link href="/dashboard" className="rounded-md px-2 py-1.5 hover:bg-stone-100 sm:px-3">Dashboard</Link>
        </nav>
      </div>
    </header>
  );
}

/** The logo mark (app/icon.svg's) and the name, linking home. */
export function BrandLink({ href = "/" }: { href?: string }) {
  return (
    <Link href={href} className="flex items-center gap-2 font-semibold">
      <svg aria-hidden="true" viewBox="0 0 64 64" className="size-6 shrink-0">
        <rect width="64" height="64" rx="14" className="fill-stone-900" />
        <rect x="14" y="17" width="36" height="6" rx="3" className="fill-stone-50" />
        <rect x="14" y="29" width="28" height="6" rx="3" className="fill-stone-50" />
        <rect x="14" y="41" width="20" height="6" rx="3" className="fill-sky-400" />
      </svg>
      Verbatim
    </Link>
  );
}
