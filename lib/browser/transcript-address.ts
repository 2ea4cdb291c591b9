import type { MouseEvent } from "react";
import { ERROR_CODES } from "@/lib/http/error-codes";

// The dashboard's address of a stored transcript is what its controls link to: a timestamp is `&t=<seconds>`,
// Edit is `&edit=all` (the whole editor) or `&edit=<paragraph>` (one paragraph of the reading view), and the
// Publish form comes back with `&published=<slug>` or `&publish_error=<code>`. The server renders each of them, so a
// control pressed before the page's scripts run still does what it says; once they run, the click is handled
// in place instead (docs/decisions/0035-controls-work-as-links-and-forms-before-hydration.md).

/** Which editor an address opens: the whole transcript's, one paragraph's (its index), or none. */
export type EditTarget = "all" | number | null;

const MAX_PARAGRAPH = 100_000;

/** `&edit=` of the viewer's address. */
export function parseEditTarget(value: string | null | undefined): EditTarget {
  if (value === "all") return "all";
  if (!value || !/^\d{1,6}$/.test(value)) return null;
  const paragraph = Number(value);
  return paragraph < MAX_PARAGRAPH ? paragraph : null;
}

/** `&published=`: a slug as the public pages make them (lower-case words and digits joined by hyphens), or null. */
export function parsePublishedSlug(value: string | null | undefined): string | null {
  return value && value.length <= 200 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) ? value : null;
}

/**
 * `&publish_error=`: what went wrong, in words: the meaning of a code of the API's closed list, else (a code of
 * another shape, such as a validation item's type) that it was not published; null for anything that is no code.
 */
export function publishFailure(value: string | null | undefined): string | null {
  if (!value || !/^[a-z0-9_]{1,64}$/.test(value)) return null;
  if (!Object.hasOwn(ERROR_CODES, value)) return "Not published. Try again.";
  return `Not published: ${ERROR_CODES[value as keyof typeof ERROR_CODES].meaning}.`;
}

/** The viewer's address of transcript `id`, at a moment (seconds, to the millisecond) or opened for editing. */
export function transcriptAddress(id: string, at: { t?: number; edit?: "all" | number } = {}): string {
  const search = new URLSearchParams({ transcript: id });
  if (at.t !== undefined) search.set("t", String(Math.round(Math.max(0, at.t) * 1000) / 1000));
  if (at.edit !== undefined) search.set("edit", String(at.edit));
  return `/dashboard?${search.toString()}`;
}

/** A click the page may take over: the main button, no key that asks for a new tab or window. */
export function plainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * Takes `names` out of the address without a navigation, once what they asked for is over (an editor the address
 * opened is closed): a reload then shows the page as it is.
 */
export function forgetInAddress(...names: string[]): void {
  const url = new URL(window.location.href);
  if (!names.some((name) => url.searchParams.has(name))) return;
  for (const name of names) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, "", url);
}
