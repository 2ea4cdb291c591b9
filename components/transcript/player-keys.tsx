"use client";

import { useEffect, useId, useRef } from "react";
import { PLAYER_KEYS, playerKeyAction, SKIP_SECONDS } from "@/lib/browser/player-keys";
import { buttonClass } from "@/components/ui/button";

interface Controls {
  toggle: () => boolean;
  skip: (delta: number) => boolean;
}

/**
 * The player's keys wherever a transcript has a player (lib/browser/player-keys.ts says which, and when they
 * are left to what has focus), and their list in a modal dialog opened with `?` or this button. The native
 * <dialog> keeps focus inside while open, closes on Escape and gives focus back to what had it.
 */
export function PlayerKeys({ player, className = "" }: { player: Controls; className?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const controls = useRef(player);
  useEffect(() => {
    controls.current = player;
  }, [player]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || dialog.current?.open) return;
      const target = (event.target instanceof Element ? event.target : document.body) as HTMLElement;
      const action = playerKeyAction({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        target: {
          tagName: target.tagName,
          isContentEditable: target.isContentEditable,
          role: target.getAttribute("role"),
        },
      });
      if (action === null) return;
      const done =
        action === "help"
          ? (dialog.current?.showModal(), true)
          : action === "toggle"
            ? controls.current.toggle()
            : controls.current.skip(action === "back" ? -SKIP_SECONDS : SKIP_SECONDS);
      if (done) event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className={buttonClass("ghost", "sm", className)}
        aria-haspopup="dialog"
        aria-keyshortcuts="Shift+Slash"
        data-testid="player-keys-button"
      >
        Keyboard shortcuts <kbd className="font-mono">?</kbd>
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-lg border border-stone-200 bg-white p-5 text-stone-900 shadow-xl backdrop:bg-black/50"
        data-testid="player-keys-dialog"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          Keyboard shortcuts
        </h2>
        <p className="mt-1 text-sm text-stone-600">For the player, when you are not typing in a field.</p>
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {PLAYER_KEYS.map((row) => (
            <div key={row.action} className="contents">
              <dt className="flex gap-1">
                {row.keys.map((key) => (
                  <kbd key={key} className="rounded border border-stone-300 bg-stone-100 px-1.5 font-mono text-xs">
                    {key}
                  </kbd>
                ))}
              </dt>
              <dd>{row.action}</dd>
            </div>
          ))}
        </dl>
        <form method="dialog" className="mt-5 flex justify-end">
          <button type="submit" className={buttonClass()}>
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
