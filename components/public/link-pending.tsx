"use client";

import { useLinkStatus } from "next/link";

/**
 * Inside a link to a public transcript: "Opening…" while the client-side navigation waits for the page (the
 * pages have no loading boundary: docs/decisions/0004-public-pages-without-a-loading-boundary.md).
 */
export function LinkPending() {
  const { pending } = useLinkStatus();
  return (
    <span className="text-sm font-normal text-stone-600" data-testid="link-pending">
      {pending ? " Opening…" : ""}
    </span>
  );
}
