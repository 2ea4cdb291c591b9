"use client";

import { buttonClass } from "@/components/ui/button";
import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import { planLabel } from "@/lib/browser/billing";
import { fetchSubscription, SUBSCRIPTION_KEY } from "@/lib/browser/transcripts";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { EXAMPLE_VIDEO_URL } from "@/lib/openapi/examples";
import { formatDateTime } from "@/lib/browser/dates";

interface ApiKeyState {
  has_key: boolean;
  key_prefix: string | null;
  tier: string;
  created_at: string | null;
  last_used_at: string | null;
  key: string | null;
}

const KEY_QUERY = ["api-key"];
const KEY_VARIABLE = "VERBATIM_API_KEY";

/** A ready-to-run request for a transcript (the API reference's example), with the key inline when we have it. */
export function transcriptCurl(baseUrl: string, key: string | null): string {
  const body = JSON.stringify({ url: EXAMPLE_VIDEO_URL, lang: "en", format: "srt" });
  return [
    `curl -X POST ${baseUrl}/v1/transcript \\`,
    `  -H "Authorization: Bearer ${key ?? `$${KEY_VARIABLE}`}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${body}'`,
  ].join("\n");
}

export function ApiKeyPanel({ baseUrl }: { baseUrl: string }) {
  const queryClient = useQueryClient();
  const [plaintext, setPlaintext] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const regenerateButton = useRef<HTMLButtonElement>(null);
  const state = useQuery({ queryKey: KEY_QUERY, queryFn: () => apiFetch<ApiKeyState>("/v1/me/api-key") });
  // The plan in words: the key's tier alone would say "free" on a server that has no limit at all.
  const subscription = useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription });
  const mutate = useMutation({
    mutationFn: (action: "ensure" | "regenerate") =>
      apiFetch<ApiKeyState>(`/v1/me/api-key/${action}`, { method: "POST" }),
    onSuccess: (next) => {
      setPlaintext(next.key);
      setConfirming(false);
      queryClient.setQueryData(KEY_QUERY, { ...next, key: null });
    },
  });

  if (state.isPending) return <p className="text-stone-500">Loading…</p>;
  if (state.isError)
    return (
      <p role="alert" className="text-red-700">
        {state.error.message}
      </p>
    );
  const key = state.data;

  return (
    <div className="flex flex-col gap-6">
      <dl className="grid max-w-md grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-lg border border-stone-200 bg-white p-4 text-sm">
        <dt className="text-stone-500">Key</dt>
        <dd data-testid="key-prefix" className="font-mono">
          {key.key_prefix ? `${key.key_prefix}…` : "No key yet"}
        </dd>
        <dt className="text-stone-500">Plan</dt>
        <dd data-testid="key-tier">{subscription.data ? planLabel(subscription.data) : "…"}</dd>
        <dt className="text-stone-500">Created</dt>
        <dd>{key.created_at ? <time dateTime={key.created_at}>{formatDateTime(key.created_at)}</time> : "—"}</dd>
        <dt className="text-stone-500">Last used</dt>
        <dd data-testid="key-last-used">
          {key.last_used_at ? (
            <time dateTime={key.last_used_at}>{formatDateTime(key.last_used_at)}</time>
          ) : key.has_key ? (
            "Never"
          ) : (
            "—"
          )}
        </dd>
      </dl>

      {/* A new key remounts this box: its copy buttons start as "Copy" again. */}
      {plaintext && <NewKey key={plaintext} plaintext={plaintext} baseUrl={baseUrl} />}

      {!key.has_key ? (
        <button
          type="button"
          onClick={() => mutate.mutate("ensure")}
          disabled={mutate.isPending}
          className={buttonClass("primary", "lg", "w-fit")}
        >
          Create key
        </button>
      ) : confirming ? (
        <ConfirmBox
          label="Confirm regeneration"
          confirmText="Yes, regenerate"
          busy={mutate.isPending}
          onConfirm={() => mutate.mutate("regenerate")}
          onCancel={() => {
            setConfirming(false);
            requestAnimationFrame(() => regenerateButton.current?.focus());
          }}
        >
          Regenerate the key? The current key stops working immediately, in every script and tool that uses it.
        </ConfirmBox>
      ) : (
        <button
          ref={regenerateButton}
          type="button"
          onClick={() => setConfirming(true)}
          className={buttonClass("secondary", "lg", "w-fit")}
        >
          Regenerate
        </button>
      )}
      {mutate.isError && (
        <p role="alert" className="text-red-700">
          {mutate.error.message}
        </p>
      )}

      {!plaintext && key.has_key && (
        <section aria-labelledby="try-it" className="flex max-w-2xl flex-col gap-2 text-sm">
          <h2 id="try-it" className="font-medium">
            Try it
          </h2>
          <p className="text-stone-600">
            With your key in <code className="font-mono">${KEY_VARIABLE}</code>, this returns a transcript as SRT:
          </p>
          <CodeBlock text={transcriptCurl(baseUrl, null)} label="Copy command" testId="curl" />
        </section>
      )}
    </div>
  );
}

/** The new plaintext, shown once. Focus moves here (the button that made it is gone), to its Copy button. */
function NewKey({ plaintext, baseUrl }: { plaintext: string; baseUrl: string }) {
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => copyButton.current?.focus(), []);
  return (
    <section
      aria-labelledby="new-key-title"
      className="flex max-w-2xl flex-col gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm"
    >
      <h2 id="new-key-title" className="font-medium">
        Your new key. Copy it now: it is shown only once.
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="new-key" className="min-w-0 flex-1 rounded bg-white px-2 py-1 font-mono break-all">
          {plaintext}
        </code>
        <CopyButton ref={copyButton} text={plaintext} label="Copy key" testId="copy-key" />
      </div>
      <p>Try it: this returns a transcript as SRT.</p>
      <CodeBlock text={transcriptCurl(baseUrl, plaintext)} label="Copy command" testId="curl" />
    </section>
  );
}

function CodeBlock({ text, label, testId }: { text: string; label: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      {/* The button sits above the command, never over it; the command wraps, so all of it is visible at any width. */}
      <div className="flex justify-end">
        <CopyButton text={text} label={label} testId={`copy-${testId}`} />
      </div>
      <pre
        data-testid={testId}
        className="rounded bg-stone-900 p-3 font-mono text-xs break-all whitespace-pre-wrap text-stone-100"
      >
        {text}
      </pre>
    </div>
  );
}

export function CopyButton({
  text,
  label,
  testId,
  ref,
}: {
  text: string;
  label: string;
  testId: string;
  ref?: React.Ref<HTMLButtonElement>;
}) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  return (
    <button
      ref={ref}
      type="button"
      aria-live="polite"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied("yes");
        } catch {
          setCopied("failed");
        }
      }}
      className={buttonClass("secondary", "sm", "text-stone-900")}
      data-testid={testId}
    >
      {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed" : label}
    </button>
  );
}
