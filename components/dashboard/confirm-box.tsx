"use client";

import { useId, useState, type ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";

/** An inline "are you sure?" box: the question, a confirming button and a way back. */
export function ConfirmBox({
  label,
  children,
  confirmText,
  cancelText = "Cancel",
  busy = false,
  onConfirm,
  onCancel,
  className = "max-w-md",
  typeToConfirm,
}: {
  /** The dialog's accessible name. */
  label: string;
  children: ReactNode;
  confirmText: string;
  cancelText?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  className?: string;
  /** What must be typed before the button confirms (a team's name before it is deleted for good). */
  typeToConfirm?: { label: string; expected: string };
}) {
  const typedId = useId();
  const [typed, setTyped] = useState("");
  const blocked = typeToConfirm !== undefined && typed.trim() !== typeToConfirm.expected.trim();
  return (
    <div
      role="alertdialog"
      aria-label={label}
      className={`flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm ${className}`}
    >
      <p>{children}</p>
      {typeToConfirm ? (
        <label htmlFor={typedId} className="flex flex-col gap-1">
          {typeToConfirm.label}
          <input
            id={typedId}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setTyped(event.target.value)}
            className={controlClass}
            data-testid="confirm-typed"
          />
        </label>
      ) : null}
      <div className="flex gap-2">
        <button
          type="button"
          onClick={onConfirm}
          disabled={busy || blocked}
          className="rounded-md bg-amber-700 px-3 py-1.5 text-white hover:bg-amber-800 disabled:opacity-50"
        >
          {confirmText}
        </button>
        <button type="button" onClick={onCancel} className={buttonClass()}>
          {cancelText}
        </button>
      </div>
    </div>
  );
}
