"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api";
import { ConfirmBox } from "@/components/dashboard/confirm-box";

interface ApiKeyState {
  has_key: boolean;
  key_prefix: string | null;
  tier: string;
  created_at: string | null;
  key: string | null;
}

const KEY_QUERY = ["api-key"];

export function ApiKeyPanel({ baseUrl }: { baseUrl: string }) {
  const queryClient = useQueryClient();
  const [plaintext, setPlaintext] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const state = useQuery({ queryKey: KEY_QUERY, queryFn: () => apiFetch<ApiKeyState>("/v1/me/api-key") });
  const mutate = useMutation({
    mutationFn: (action: "ensure" | "regenerate") => apiFetch<ApiKeyState>(`/v1/me/api-key/${action}`, { method: "POST" }),
    onSuccess: (next) => {
      setPlaintext(next.key);
      setConfirming(false);
      queryClient.setQueryData(KEY_QUERY, { ...next, key: null });
    },
  });

  if (state.isPending) return <p className="text-stone-500">Loading…</p>;
  if (state.isError) return <p role="alert" className="text-red-700">{state.error.message}</p>;
  const key = state.data;

  return (
    <div className="flex flex-col gap-6">
      <dl className="grid max-w-md grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-lg border border-stone-200 bg-white p-4 text-sm">
        <dt className="text-stone-500">Key</dt>
        <dd data-testid="key-prefix" className="font-mono">{key.key_prefix ? `${key.key_prefix}…` : "No key yet"}</dd>
        <dt className="text-stone-500">Plan</dt>
        <dd data-testid="key-tier">{key.tier}</dd>
        <dt className="text-stone-500">Created</dt>
        <dd>{key.created_at ? new Date(key.created_at).toLocaleString() : "—"}</dd>
      </dl>

      {plaintext && <NewKey plaintext={plaintext} baseUrl={baseUrl} />}

      {!key.has_key ? (
        <button type="button" onClick={() => mutate.mutate("ensure")} disabled={mutate.isPending} className="w-fit rounded-md bg-stone-900 px-4 py-2 text-white hover:bg-stone-700 disabled:opacity-50">
          Create key
        </button>
      ) : confirming ? (
        <ConfirmBox
          label="Confirm regeneration"
          confirmText="Yes, regenerate"
          busy={mutate.isPending}
          onConfirm={() => mutate.mutate("regenerate")}
          onCancel={() => setConfirming(false)}
        >
          Regenerate the key? The current key stops working immediately, in every script and tool that uses it.
        </ConfirmBox>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} className="w-fit rounded-md border border-stone-300 px-4 py-2 hover:bg-stone-100">
          Regenerate
        </button>
      )}
      {mutate.isError && <p role="alert" className="text-red-700">{mutate.error.message}</p>}
    </div>
  );
}

function NewKey({ plaintext, baseUrl }: { plaintext: string; baseUrl: string }) {
  const [copied, setCopied] = useState(false);
  const curl = `curl -H "Authorization: Bearer ${plaintext}" ${baseUrl}/v1/me/api-key`;
  return (
    <div className="flex max-w-2xl flex-col gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm">
      <p className="font-medium">Your new key. Copy it now: it is shown only once.</p>
      <div className="flex items-center gap-2">
        <code data-testid="new-key" className="flex-1 overflow-x-auto rounded bg-white px-2 py-1 font-mono">{plaintext}</code>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(plaintext);
            setCopied(true);
          }}
          className="rounded-md border border-stone-300 bg-white px-3 py-1 hover:bg-stone-100"
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <p>Try it:</p>
      <pre className="overflow-x-auto rounded bg-stone-900 p-3 font-mono text-xs text-stone-100">{curl}</pre>
    </div>
  );
}
