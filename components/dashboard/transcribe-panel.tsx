"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  fetchSubscription,
  formatMinutes,
  requestTranscript,
  SUBSCRIPTION_KEY,
  transcriptKey,
  TRANSCRIPTIONS_KEY,
} from "@/lib/client/transcripts";
import { TranscriptViewer } from "@/components/dashboard/transcript-viewer";

const LANGUAGE_SUGGESTIONS: readonly [string, string][] = [
  ["en", "English"],
  ["es", "Spanish"],
  ["de", "German"],
  ["fr", "French"],
  ["pt", "Portuguese"],
  ["pt-BR", "Portuguese (Brazil)"],
  ["it", "Italian"],
  ["ja", "Japanese"],
  ["ko", "Korean"],
  ["zh-Hans", "Chinese (Simplified)"],
];

const inputClass =
  "w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm placeholder:text-stone-400 focus:outline-none focus:ring-2 focus:ring-stone-400";

/**
 * The Transcribe page: a link and a language in, the transcript out. `?url=…&lang=…` in the page's
 * address submits at once (History links here), and a submitted request is written back to it.
 */
export function TranscribePanel() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const queryClient = useQueryClient();
  const queryUrl = searchParams.get("url")?.trim() ?? "";
  const queryLang = searchParams.get("lang")?.trim() || "en";
  const queryKey = `${queryUrl}\n${queryLang}`;

  const [url, setUrl] = useState(queryUrl);
  const [lang, setLang] = useState(queryLang);
  // When the address changes while the page is open, the form follows it.
  const [seenQueryKey, setSeenQueryKey] = useState(queryKey);
  if (seenQueryKey !== queryKey) {
    setSeenQueryKey(queryKey);
    if (queryUrl) {
      setUrl(queryUrl);
      setLang(queryLang);
    }
  }

  const transcribe = useMutation({
    mutationFn: requestTranscript,
    onSuccess: (result) => {
      if (result.kind === "transcript") queryClient.setQueryData(transcriptKey(result.transcript.id, "json"), result.transcript);
      void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY });
      void queryClient.invalidateQueries({ queryKey: TRANSCRIPTIONS_KEY });
    },
  });
  const { mutate } = transcribe;

  // The last request sent, so the address written back after a submit does not send it again.
  const lastSent = useRef<string | null>(null);
  useEffect(() => {
    if (!queryUrl || lastSent.current === queryKey) return;
    lastSent.current = queryKey;
    mutate({ url: queryUrl, lang: queryLang });
  }, [queryKey, queryUrl, queryLang, mutate]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = { url: url.trim(), lang: lang.trim() || "en" };
    if (!input.url) return;
    lastSent.current = `${input.url}\n${input.lang}`;
    mutate(input);
    router.replace(`${pathname}?${new URLSearchParams(input).toString()}`, { scroll: false });
  }

  const result = transcribe.data;
  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={onSubmit} className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4" aria-label="Transcribe a link">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <label className="flex flex-1 flex-col gap-1 text-sm">
            <span className="font-medium">Video or audio link</span>
            <input
              name="url"
              type="text"
              inputMode="url"
              required
              autoComplete="off"
              spellCheck={false}
              placeholder="https://www.youtube.com/watch?v=…"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              className={inputClass}
              data-testid="transcribe-url"
            />
          </label>
          <label className="flex flex-col gap-1 text-sm sm:w-36">
            <span className="font-medium">Language</span>
            <input
              name="lang"
              type="text"
              list="transcribe-languages"
              autoComplete="off"
              spellCheck={false}
              value={lang}
              onChange={(event) => setLang(event.target.value)}
              className={inputClass}
              data-testid="transcribe-lang"
            />
            <datalist id="transcribe-languages">
              {LANGUAGE_SUGGESTIONS.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </datalist>
          </label>
          <button
            type="submit"
            disabled={transcribe.isPending}
            aria-busy={transcribe.isPending}
            className="inline-flex items-center justify-center gap-2 rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white hover:bg-stone-700 disabled:opacity-60"
            data-testid="transcribe-submit"
          >
            {transcribe.isPending && <Spinner />}
            {transcribe.isPending ? "Transcribing…" : "Transcribe"}
          </button>
        </div>
        <p className="text-xs text-stone-500">
          YouTube, X, TikTok, Facebook, Instagram, RedNote and Vimeo links. Asking again for a transcript already in your history is free.
        </p>
        <UsageLine />
      </form>

      {transcribe.isError && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="transcribe-error">
          {transcribe.error.message}
        </p>
      )}
      {result?.kind === "queued" && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="transcribe-queued">
          Queued: this one needs speech recognition, which runs in the background (job <code className="font-mono">{result.jobId}</code>,{" "}
          {result.status.replace(/_/g, " ")}). It appears in History when it is done.
        </p>
      )}
      {result?.kind === "transcript" && <TranscriptViewer key={result.transcript.id} transcript={result.transcript} />}
    </div>
  );
}

function UsageLine() {
  const subscription = useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription });
  if (!subscription.data) return null;
  const { tier, used_seconds, limit_seconds } = subscription.data;
  const left = Math.max(0, limit_seconds - used_seconds);
  return (
    <p className="text-xs text-stone-600" data-testid="usage-line">
      {tier.charAt(0).toUpperCase() + tier.slice(1)} plan: {formatMinutes(used_seconds)} of {formatMinutes(limit_seconds)} used this period
      {left === 0 ? " (allowance used up)" : ""}.
    </p>
  );
}

function Spinner() {
  return <span aria-hidden="true" className="size-3.5 animate-spin rounded-full border-2 border-white/40 border-t-white" />;
}
