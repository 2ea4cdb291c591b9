"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";

/** "Sign out everywhere": ends every dashboard session of the user (this one too), then goes to sign-in. */
export function SessionsPanel() {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const end = useMutation({
    mutationFn: () => apiFetch<{ ended: number }>("/v1/me/sessions/revoke", { method: "POST" }),
    onSuccess: () => router.push("/signin"),
  });
  return (
    <section className="flex max-w-md flex-col gap-3">
      <h2 className="text-lg font-semibold">Sessions</h2>
      <p className="text-sm text-stone-600">
        Signed in on a computer you no longer use? End every session, here and on all other browsers. Your API key keeps working.
      </p>
      {confirming ? (
        <div role="alertdialog" aria-label="Confirm sign out everywhere" className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm">
          <p>Sign out of every browser, this one included?</p>
          <div className="flex gap-2">
            <button type="button" onClick={() => end.mutate()} disabled={end.isPending} className="rounded-md bg-amber-700 px-3 py-1.5 text-white hover:bg-amber-800 disabled:opacity-50">
              Yes, sign out everywhere
            </button>
            <button type="button" onClick={() => setConfirming(false)} className="rounded-md border border-stone-300 px-3 py-1.5 hover:bg-stone-100">
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} className="w-fit rounded-md border border-stone-300 px-4 py-2 hover:bg-stone-100">
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
