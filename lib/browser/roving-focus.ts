"use client";

import { useEffect, type FocusEvent, type KeyboardEvent, type RefObject } from "react";

// One Tab stop for a long list of like controls (a transcript's timestamps): Tab enters the list at the
// control last used, the arrow keys (and Home, End, Page Up, Page Down) move within it. The tabindex is
// set on the elements directly, not rendered: moving needs no re-render of a thousand lines, and a page
// without JavaScript keeps every control reachable. The list element takes `rovingKeyDown` and
// `rovingFocus` as its onKeyDown and onFocus; its controls carry `data-roving`.

const ITEM = "[data-roving]";
const PAGE = 10;

function items(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(ITEM));
}

function choose(container: HTMLElement, chosen: HTMLElement | null) {
  for (const item of items(container)) item.tabIndex = item === chosen ? 0 : -1;
}

/** Keeps exactly one control tabbable; `deps`: whatever changes which controls exist (a new transcript, a filter). */
export function useRovingFocus(container: RefObject<HTMLElement | null>, deps: readonly unknown[]) {
  useEffect(() => {
    const box = container.current;
    if (!box) return;
    const all = items(box);
    choose(box, all.find((item) => item.getAttribute("tabindex") === "0") ?? all[0] ?? null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}

export function rovingKeyDown(event: KeyboardEvent<HTMLElement>) {
  const target = event.target as HTMLElement;
  if (!target.matches(ITEM)) return;
  const all = items(event.currentTarget);
  const at = all.indexOf(target);
  const next =
    event.key === "ArrowDown" || event.key === "ArrowRight"
      ? at + 1
      : event.key === "ArrowUp" || event.key === "ArrowLeft"
        ? at - 1
        : event.key === "PageDown"
          ? at + PAGE
          : event.key === "PageUp"
            ? at - PAGE
            : event.key === "Home"
              ? 0
              : event.key === "End"
                ? all.length - 1
                : null;
  if (next === null || all.length === 0) return;
  event.preventDefault();
  const chosen = all[Math.max(0, Math.min(all.length - 1, next))];
  choose(event.currentTarget, chosen);
  chosen.focus();
}

/** A control reached by a click (or a jump) becomes the list's Tab stop. */
export function rovingFocus(event: FocusEvent<HTMLElement>) {
  const target = event.target as HTMLElement;
  if (target.matches(ITEM) && target.getAttribute("tabindex") !== "0") choose(event.currentTarget, target);
}
