"use client";

import { useEffect, type RefObject } from "react";

// Text areas that show their whole text: CSS `field-sizing: content` (the class FIELD_SIZING) where the browser
// has it; elsewhere each area's height is set to its content's, on mount, on typing and when the container's
// width changes (its lines wrap again). All heights are reset, then all read, then all set: one layout for the
// thousands of areas of a long transcript rather than one per area.

/** Tailwind's `field-sizing: content`, with no resize handle (the height follows the text). */
export const FIELD_SIZING = "field-sizing-content resize-none";

function sizesItself(): boolean {
  return typeof CSS !== "undefined" && CSS.supports("field-sizing", "content");
}

function grow(areas: readonly HTMLTextAreaElement[]) {
  for (const area of areas) area.style.height = "auto";
  const heights = areas.map((area) => area.scrollHeight + area.offsetHeight - area.clientHeight);
  areas.forEach((area, k) => (area.style.height = `${heights[k]}px`));
}

/** Keeps every text area inside `container` as tall as its text where CSS cannot; `deps`: what remounts them. */
export function useGrowToContent(container: RefObject<HTMLElement | null>, deps: readonly unknown[]) {
  useEffect(() => {
    const box = container.current;
    if (!box || sizesItself()) return;
    const all = () => Array.from(box.querySelectorAll("textarea"));
    grow(all());
    const onInput = (event: Event) => {
      if (event.target instanceof HTMLTextAreaElement) grow([event.target]);
    };
    let width = box.clientWidth;
    const observer = new ResizeObserver(() => {
      if (box.clientWidth === width) return;
      width = box.clientWidth;
      grow(all());
    });
    box.addEventListener("input", onInput);
    observer.observe(box);
    return () => {
      box.removeEventListener("input", onInput);
      observer.disconnect();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
