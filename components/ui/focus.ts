/** The keyboard focus ring every control shows (a ring rather than the global outline, so it follows rounded corners). */
export const focusRing = "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500";
