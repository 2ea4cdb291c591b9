import Link from "next/link";
import { SiteHeader } from "@/components/site/site-header";
import { buttonClass } from "@/components/ui/button";

export function NotFoundView() {
  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main
        id="main"
        className="mx-auto flex max-w-xl flex-col items-start gap-4 px-4 py-16 sm:px-6"
        data-testid="not-found"
      >
        <p className="text-sm font-medium text-stone-500">404</p>
        <h1 className="text-2xl font-semibold">This page does not exist</h1>
        <p className="text-stone-600">
          The link may be mistyped, or the page was taken down. A public transcript disappears when its owner
          unpublishes it.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link href="/dashboard" className={buttonClass("primary", "lg")}>
            Go to the dashboard
          </Link>
          <Link href="/explore" className={buttonClass("secondary", "lg")}>
            Browse public transcripts
          </Link>
        </div>
      </main>
    </div>
  );
}
