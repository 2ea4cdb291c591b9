"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { buttonClass } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/use-hydrated";

/** "Sign out everywhere": ends every dashboard session of the user (this one too), then goes to sign-in. */
export function SessionsPanel() {
  const router = useRouter();
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  const end = useMutation({
    mutationFn: () => apiFetch<{ ended: number }>("/v1/me/sessions/revoke", { method: "POST" }),
    onSuccess: () => router.push("/signin"),
  });
  return (
    <section className="flex max-w-md flex-col gap-3">
      <h2 className="text-lg font-semibold">Sessions</h2>
      <p className="text-sm text-stone-600">
        Signed in on a computer you no longer use? End every session, here and on all other browsers. Your API key keeps
        working.
      </p>
      {confirming ? (
        <ConfirmBox
          label="Confirm sign out everywhere"
          confirmText="Yes, sign out everywhere"
          busy={end.isPending}
          onConfirm={() => end.mutate()}
          onCancel={() => setConfirming(false)}
          className=""
        >
          Sign out of every browser, this one included?
        </ConfirmBox>
      ) : (
        <button
          type="button"
          onClick={() => setConfirming(true)}
          disabled={!hydrated}
          className={buttonClass("secondary", "lg", "w-fit")}
        >
          Sign out everywhere
        </button>
      )}
      {end.isError && (
        <p role="alert" className="text-sm text-red-700">
          {end.error.message}
        </p>
      )}
    </section>
  );
}
