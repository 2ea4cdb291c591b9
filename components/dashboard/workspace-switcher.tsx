"use client";

import { useId, useState } from "react";
import { apiFetch } from "@/lib/browser/api";
import { Select } from "@/components/ui/field";
import type { WorkspaceChoice } from "@/lib/auth/workspaces";

const label = (choice: WorkspaceChoice) =>
  choice.kind === "person" ? "Your own account" : `${choice.name ?? choice.slug ?? "Team"}`;

/**
 * Which workspace the dashboard acts in, always shown, and the switch to another: the choice is the server's
 * (PUT /v1/me/workspace sets the cookie after checking membership), and the page is loaded again so nothing of
 * the previous workspace stays on screen.
 */
export function WorkspaceSwitcher({ current, choices }: { current: WorkspaceChoice; choices: WorkspaceChoice[] }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sentence =
    current.kind === "team" ? (
      <>
        You are in the team <strong className="text-stone-900">{label(current)}</strong> as {current.role}.
      </>
    ) : (
      <>You are in your own account.</>
    );
  // A person in no team has one workspace: it is said, with nothing to choose.
  if (choices.length < 2)
    return (
      <p className="py-1.5 text-sm text-stone-600" data-testid="workspace-switcher">
        <span data-testid="workspace-current">{sentence}</span>
      </p>
    );
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-testid="workspace-switcher">
      <label htmlFor={id} className="shrink-0 text-stone-600 max-sm:sr-only">
        Workspace
      </label>
      <Select
        id={id}
        value={current.id}
        disabled={busy}
        aria-describedby={`${id}-current`}
        className="max-w-72 min-w-0 py-1"
        data-testid="workspace-select"
        onChange={async (event) => {
          const chosen = event.target.value;
          setBusy(true);
          setError(null);
          try {
            await apiFetch("/v1/me/workspace", {
              method: "PUT",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ workspace_id: chosen === choices[0]?.id ? null : chosen }),
            });
            window.location.reload();
          } catch (failure) {
            setError(failure instanceof Error ? failure.message : "Could not switch.");
            setBusy(false);
          }
        }}
      >
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.kind === "team" ? `${label(choice)} · ${choice.role}` : label(choice)}
          </option>
        ))}
      </Select>
      {/* The select names the workspace on a phone; the sentence says it on wider screens and to screen readers. */}
      <span
        id={`${id}-current`}
        className="min-w-0 truncate text-stone-600 max-sm:sr-only"
        data-testid="workspace-current"
      >
        {sentence}
      </span>
      {error ? (
        // A line of its own below the select on a phone (a refusal such as single sign-on's is a sentence or two).
        <span role="alert" className="min-w-0 break-words text-red-700 max-sm:basis-full" data-testid="workspace-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
