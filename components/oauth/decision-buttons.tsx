"use client";

import { useId, useState } from "react";
import { apiFetch } from "@/lib/browser/api";
import { buttonClass } from "@/components/ui/button";
import { Select } from "@/components/ui/field";
import type { WorkspaceChoice } from "@/lib/auth/workspaces";

const primary = buttonClass("primary", "lg");
const secondary = buttonClass("secondary", "lg");

/** Where a grant will act: the person's own account, or a team they may transcribe in (chosen at consent). */
export interface GrantWorkspaces {
  choices: WorkspaceChoice[];
  /** The one chosen at first (the dashboard's, when it may be granted). */
  initial: string;
}

/** The workspace picker both consent pages share; a person in no team sees only their own account, said in words. */
function WorkspacePicker({
  workspaces,
  value,
  onChange,
}: {
  workspaces: GrantWorkspaces;
  value: string;
  onChange: (id: string) => void;
}) {
  const id = useId();
  if (workspaces.choices.length < 2) return null;
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="font-medium">
        Acts in
      </label>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value)} data-testid="grant-workspace">
        {workspaces.choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.kind === "person"
              ? "Your own account"
              : `${choice.name ?? choice.slug ?? "Team"} (team, as ${choice.role})`}
          </option>
        ))}
      </Select>
      <span className="text-stone-600">
        It reads and writes that workspace&rsquo;s library and spends its allowance, with your role there.
      </span>
    </div>
  );
}

/** The body's workspace_id: null for the person's own account (the first choice). */
const workspaceField = (workspaces: GrantWorkspaces | undefined, chosen: string) =>
  workspaces && chosen !== workspaces.choices[0]?.id ? { workspace_id: chosen } : {};

/** The two buttons and the error line both decisions share. */
function Decision({
  approveLabel,
  busy,
  error,
  onDecide,
}: {
  approveLabel: string;
  busy: boolean;
  error: string | null;
  onDecide: (decision: "approve" | "deny") => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      <div className="flex gap-3">
        <button type="button" className={primary} disabled={busy} onClick={() => onDecide("approve")}>
          {approveLabel}
        </button>
        <button type="button" className={secondary} disabled={busy} onClick={() => onDecide("deny")}>
          Deny
        </button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** Approve / Deny for a device login: posts the user code, then says what happens next. */
export function DeviceDecision({ userCode, workspaces }: { userCode: string; workspaces?: GrantWorkspaces }) {
  const [workspace, setWorkspace] = useState(workspaces?.initial ?? "");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<"approved" | "denied" | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function decide(decision: "approve" | "deny") {
    setBusy(true);
    setError(null);
    try {
      const result = await apiFetch<{ approved: boolean }>(`/v1/device/${decision}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          user_code: userCode,
          ...(decision === "approve" ? workspaceField(workspaces, workspace) : {}),
        }),
      });
      setDone(result.approved ? "approved" : "denied");
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }
  if (done === "approved")
    return (
      <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-green-900">
        Approved. You can close this page and return to your device.
      </p>
    );
  if (done === "denied")
    return (
      <p role="status" className="rounded-md bg-stone-100 px-3 py-2">
        Denied. The device was not signed in.
      </p>
    );
  return (
    <div className="flex flex-col gap-4">
      {workspaces ? <WorkspacePicker workspaces={workspaces} value={workspace} onChange={setWorkspace} /> : null}
      <Decision approveLabel="Approve" busy={busy} error={error} onDecide={decide} />
    </div>
  );
}

export interface ConsentRequest {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: "S256";
  state: string | null;
  scope: string | null;
  resource: string | null;
}

/** Approve / Deny on the consent page: the API answers where the browser goes next (the app's redirect URI). */
export function ConsentDecision({ request, workspaces }: { request: ConsentRequest; workspaces?: GrantWorkspaces }) {
  const [workspace, setWorkspace] = useState(workspaces?.initial ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function decide(decision: "approve" | "deny") {
    setBusy(true);
    setError(null);
    try {
      const { redirect_to } = await apiFetch<{ redirect_to: string }>("/v1/oauth/authorize", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          ...request,
          decision,
          ...(decision === "approve" ? workspaceField(workspaces, workspace) : {}),
        }),
      });
      window.location.assign(redirect_to);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-col gap-4">
      {workspaces ? <WorkspacePicker workspaces={workspaces} value={workspace} onChange={setWorkspace} /> : null}
      <Decision approveLabel="Allow" busy={busy} error={error} onDecide={decide} />
    </div>
  );
}
