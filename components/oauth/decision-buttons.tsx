"use client";

import { useState } from "react";
import { apiFetch } from "@/lib/browser/api";
import { buttonClass } from "@/components/ui/button";

const primary = buttonClass("primary", "lg");
const secondary = buttonClass("secondary", "lg");

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
export function DeviceDecision({ userCode }: { userCode: string }) {
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
        body: JSON.stringify({ user_code: userCode }),
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
  return <Decision approveLabel="Approve" busy={busy} error={error} onDecide={decide} />;
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
export function ConsentDecision({ request }: { request: ConsentRequest }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function decide(decision: "approve" | "deny") {
    setBusy(true);
    setError(null);
    try {
      const { redirect_to } = await apiFetch<{ redirect_to: string }>("/v1/oauth/authorize", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...request, decision }),
      });
      window.location.assign(redirect_to);
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  }
  return <Decision approveLabel="Allow" busy={busy} error={error} onDecide={decide} />;
}
