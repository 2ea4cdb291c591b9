"use client";

import { useState } from "react";
import { PhoneShort } from "@/components/ui/phone-short";
import { buttonClass } from "@/components/ui/button";

/** Copies `text()` to the clipboard and says so in place for two seconds. */
/** `short`: the label on a phone, where the transcript's options share one row. */
export function CopyButton({ text, label, short }: { text: () => string; label: string; short?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text());
          setState("copied");
        } catch {
          setState("failed");
        }
        setTimeout(() => setState("idle"), 2000);
      }}
      className={buttonClass()}
      data-testid="transcript-copy"
    >
      <span aria-live="polite">
        {state === "copied" ? (
          "Copied"
        ) : state === "failed" ? (
          "Copy failed"
        ) : short ? (
          <PhoneShort long={label} short={short} />
        ) : (
          label
        )}
      </span>
    </button>
  );
}
