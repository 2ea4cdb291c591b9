"use client";

import { useEffect, useState } from "react";
import { momentUrl, shareLink, type ShareOutcome } from "@/lib/browser/share";
import { buttonClass } from "@/components/ui/button";

const SAID: Record<ShareOutcome, string> = {
  shared: "Shared",
  copied: "Link copied",
  cancelled: "",
  failed: "Could not share: copy the address bar",
};

/**
 * Sharing a public page, and the moment being played or the one a link opened at (`#t<seconds>-<index>`,
 * which lands below the player, marked): the system's share sheet where there is one, else the clipboard.
 * Rendered once the page runs (no button that cannot work without JavaScript).
 */
export function ShareLinks({ title, moment }: { title: string; moment: { anchor: string; clock: string } | null }) {
  const [said, setSaid] = useState("");
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(""), 2500);
    return () => clearTimeout(timer);
  }, [said]);
  const share = async (anchor: string | null) =>
    setSaid(SAID[await shareLink(momentUrl(window.location, anchor), title)]);
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="share-links">
      <button type="button" className={buttonClass()} onClick={() => void share(null)} data-testid="share-page">
        Share page
      </button>
      {moment && (
        <button
          type="button"
          className={buttonClass()}
          onClick={() => void share(moment.anchor)}
          data-testid="share-moment"
        >
          Share moment at {moment.clock}
        </button>
      )}
      <span role="status" className="text-sm text-stone-600" data-testid="share-status">
        {said}
      </span>
    </div>
  );
}
