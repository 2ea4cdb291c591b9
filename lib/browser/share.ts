// Sharing a link from a page: the system's share sheet where the browser has one (the Web Share API: phones,
// some desktops), else the clipboard. Browser-only; the caller says what happened in place.

export type ShareOutcome = "shared" | "copied" | "cancelled" | "failed";

export interface ShareTarget {
  share?: (data: ShareData) => Promise<void>;
  canShare?: (data: ShareData) => boolean;
  clipboard?: { writeText: (text: string) => Promise<void> };
}

/** Shares `url` (with `title`) through `nav` (the browser's navigator). */
export async function shareLink(url: string, title: string, nav: ShareTarget = navigator): Promise<ShareOutcome> {
  const data = { title, url };
  if (typeof nav.share === "function" && (typeof nav.canShare !== "function" || nav.canShare(data))) {
    try {
      await nav.share(data);
      return "shared";
    } catch (error) {
      // The reader closed the sheet: nothing to fall back to.
      if (error instanceof Error && error.name === "AbortError") return "cancelled";
    }
  }
  try {
    if (!nav.clipboard) return "failed";
    await nav.clipboard.writeText(url);
    return "copied";
  } catch {
    return "failed";
  }
}

/** A page's address with a moment's anchor (`#t<seconds>-<index>`) in place of any hash or query it had. */
export function momentUrl(location: { origin: string; pathname: string }, anchor: string | null): string {
  return `${location.origin}${location.pathname}${anchor ? `#${anchor}` : ""}`;
}
