import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";

const navLink = `flex items-center rounded-md px-2 py-1.5 hover:bg-stone-100 max-sm:min-h-11 sm:px-3 ${focusRing}`;

/**
 * The header of pages outside the dashboard (home, sign-in, public transcripts, explore, device and
 * consent pages, 404): the brand, linking home, and the ways in. Cached public pages cannot know who is
 * signed in: they link to the Dashboard (which asks only those who are not); the home page, which
 * knows, offers "Sign in" to those signed out.
 */
export function SiteHeader({ signIn = false }: { signIn?: boolean }) {
  return (
    <header className="border-b border-stone-200 bg-white">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-2 sm:px-6 sm:py-3">
        <BrandLink />
        <nav aria-label="Site" className="flex items-center gap-1 text-sm">
          <Link href="/explore" className={navLink}>
            Explore
          </Link>
          <Link href="/docs" className={navLink}>
            API
          </Link>
          {signIn ? (
            <Link href="/signin" className={buttonClass("primary", "md", "ml-1")} data-testid="header-sign-in">
              Sign in
            </Link>
          ) : (
            <Link href="/dashboard" className={navLink}>
              Dashboard
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}

/** The logo mark (app/icon.svg's) and the name, linking home. */
export function BrandLink({ href = "/" }: { href?: string }) {
  return (
    <Link
      href={href}
      className={`flex items-center gap-2 rounded font-semibold max-sm:min-h-11 ${focusRing}`}
      data-testid="brand"
    >
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

/** The first thing Tab reaches on every page: straight to the page's content (`<main id="main">`). */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      data-testid="skip-link"
    >
      Skip to content
    </a>
  );
}
