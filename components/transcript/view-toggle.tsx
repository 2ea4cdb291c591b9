import { buttonClass } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { TranscriptReader } from "@/components/transcript/use-transcript-reader";

/** The cue list one click away from the reading view, and back. */
export function ViewToggle({ reader }: { reader: Pick<TranscriptReader, "view" | "toggleView"> }) {
  return (
    <button
      type="button"
      className={buttonClass()}
      aria-pressed={reader.view === "cues"}
      disabled={!useHydrated()}
      onClick={reader.toggleView}
      data-testid="view-toggle"
    >
      Cue list
    </button>
  );
}
