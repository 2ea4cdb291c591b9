import { useSyncExternalStore } from "react";
import { buttonClass } from "@/components/ui/button";
import type { TranscriptReader } from "@/components/transcript/use-transcript-reader";

const noSubscription = () => () => {};

/** The cue list one click away from the reading view, and back. */
export function ViewToggle({ reader }: { reader: Pick<TranscriptReader, "view" | "toggleView"> }) {
  // Disabled in the server's HTML and while hydrating, when a click could only be lost; enabled once it works.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    <button
      type="button"
      className={buttonClass()}
      aria-pressed={reader.view === "cues"}
      disabled={!hydrated}
      onClick={reader.toggleView}
      data-testid="view-toggle"
    >
      Cue list
    </button>
  );
}
