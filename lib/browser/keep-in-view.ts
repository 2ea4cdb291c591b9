"use client";

// Scrolling a transcript's line into view without hiding it under what is pinned to the top of the
// window (the phone's sticky player and search bar, marked data-pinned).

/**
 * How far down the window the pinned elements above `target` reach once stuck (their sticky `top` plus
 * their height): where they will be after the scroll, not where they are now. Pinned elements beside the
 * target (the wide screen's player) do not count.
 */
function pinnedBottom(target: DOMRect): number {
  let bottom = 0;
  for (const element of document.querySelectorAll<HTMLElement>("[data-pinned]")) {
    const style = getComputedStyle(element);
    if (style.position !== "sticky") continue;
    const rect = element.getBoundingClientRect();
    if (rect.right <= target.left || rect.left >= target.right) continue;
    bottom = Math.max(bottom, (Number.parseFloat(style.top) || 0) + rect.height);
  }
  return bottom;
}

/**
 * Scrolls the nearest scrolling box (a list with its own scroll, else the window) to put `element` in its middle.
 * A list with its own scroll can itself reach below the window (the wide screen's list starts under the title
 * and toolbar): the window then scrolls too, to where the element lands once the list has scrolled.
 */
export function keepInView(element: HTMLElement) {
  const box = element.closest("ol");
  const rect = element.getBoundingClientRect();
  if (box && box.scrollHeight > box.clientHeight + 1 && getComputedStyle(box).overflowY !== "visible") {
    const frame = box.getBoundingClientRect();
    const wanted = box.scrollTop + rect.top - frame.top - (frame.height - rect.height) / 2;
    const top = Math.min(Math.max(wanted, 0), box.scrollHeight - box.clientHeight);
    box.scrollTo({ top, behavior: "smooth" });
    const landing = rect.top - (top - box.scrollTop);
    revealInWindow(landing, landing + rect.height, rect);
    return;
  }
  revealInWindow(rect.top, rect.bottom, rect);
}

/** Scrolls the window when the span from `top` to `bottom` (window coordinates) is not well inside what is uncovered. */
function revealInWindow(top: number, bottom: number, rect: DOMRect) {
  const covered = pinnedBottom(rect);
  const visible = window.innerHeight - covered;
  if (top >= covered + visible * 0.2 && bottom <= window.innerHeight - visible * 0.2) return;
  window.scrollTo({ top: window.scrollY + top - covered - (visible - (bottom - top)) / 2, behavior: "smooth" });
}

/**
 * Lands on a moment (a moment link's cue): scrolls the window so that `element` starts a little below everything
 * pinned above it (the sticky player and toolbar, measured now), wherever it is on the page. Instant: the
 * reader asked for that place, and a smooth scroll would be overtaken by the page still settling.
 */
export function landBelowPinned(element: HTMLElement, gap = 16) {
  const rect = element.getBoundingClientRect();
  window.scrollTo({ top: Math.max(0, window.scrollY + rect.top - pinnedBottom(rect) - gap), behavior: "instant" });
}
