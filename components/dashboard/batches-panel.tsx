"use client";

import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ProgressBar } from "@/components/dashboard/progress-bar";
import { buttonClass } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/notice";
import {
  BATCH_POLL_MS,
  BATCH_STATUS_LABELS,
  batchDonePercent,
  batchDownloadHref,
  batchKey,
  fetchBatch,
  isBatchOpen,
  retryBatch,
  startBatch,
  type BatchOut,
} from "@/lib/browser/batches";

const FORMATS = ["srt", "md", "text", "vtt", "json"] as const;

/** Paste links (or choose a TXT/CSV file), start them as one batch, and follow it: counts, items, retry, zip. */
export function BatchesPanel({ initialBatchId }: { initialBatchId: string | null }) {
  const listId = useId();
  const [text, setText] = useState("");
  const [batchId, setBatchId] = useState<string | null>(initialBatchId);
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: startBatch,
    onSuccess: (batch) => {
      setText("");
      setBatchId(batch.id);
      queryClient.setQueryData(batchKey(batch.id), batch);
      // A reload shows the same batch.
      window.history.replaceState(null, "", `?batch=${encodeURIComponent(batch.id)}`);
    },
  });

  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) start.mutate(text);
        }}
      >
        <label htmlFor={listId} className="text-sm font-medium">
          Links, one a line (up to 1,000; any platform)
        </label>
        <textarea
          id={listId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={8}
          className="rounded-md border border-stone-300 p-2 font-mono text-sm"
          placeholder={"https://www.youtube.com/watch?v=…\nhttps://x.com/…/status/…"}
        />
        <div className="flex flex-wrap items-center gap-3">
          <label className="text-sm">
            Or a TXT or CSV file:{" "}
            <input
              type="file"
              accept=".txt,.csv,text/plain,text/csv"
              className="text-sm"
              onChange={async (event) => {
                const file = event.target.files?.[0];
                if (file) setText(await file.text());
              }}
            />
          </label>
          <button type="submit" className={buttonClass("primary")} disabled={start.isPending || !text.trim()}>
            {start.isPending ? "Starting…" : "Start the batch"}
          </button>
        </div>
        <ErrorText error={start.error} />
      </form>
      {batchId ? <BatchView batchId={batchId} /> : null}
    </div>
  );
}

function BatchView({ batchId }: { batchId: string }) {
  const queryClient = useQueryClient();
  const [formats, setFormats] = useState<string[]>(["srt", "md"]);
  const batch = useQuery({
    queryKey: batchKey(batchId),
    queryFn: () => fetchBatch(batchId),
    refetchInterval: (query) => (query.state.data && isBatchOpen(query.state.data) ? BATCH_POLL_MS : false),
  });
  const retry = useMutation({
    mutationFn: () => retryBatch(batchId),
    onSuccess: (next) => queryClient.setQueryData(batchKey(batchId), next),
  });
  if (batch.error) return <ErrorText error={batch.error} />;
  const data: BatchOut | undefined = batch.data;
  if (!data) return <p className="text-sm text-stone-600">Loading the batch…</p>;
  return (
    <section className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4" data-testid="batch">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">Batch of {data.total.toLocaleString("en-US")} links</h2>
        <span className="text-sm" data-testid="batch-status">
          {BATCH_STATUS_LABELS[data.status]}
        </span>
      </div>
      <ProgressBar value={batchDonePercent(data)} label="Batch progress" />
      <p className="text-sm" data-testid="batch-counts">
        {data.done} done · {data.failed} failed · {data.queued + data.running} queued · {data.skipped} skipped
      </p>
      {data.note ? <p className="text-sm text-stone-600">{data.note}</p> : null}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={buttonClass("secondary")}
          disabled={data.failed === 0 || retry.isPending}
          onClick={() => retry.mutate()}
        >
          Retry {data.failed} failed
        </button>
        <fieldset className="flex items-center gap-2 text-sm">
          <legend className="sr-only">Formats in the zip</legend>
          {FORMATS.map((format) => (
            <label key={format} className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={formats.includes(format)}
                onChange={(event) =>
                  setFormats((now) => (event.target.checked ? [...now, format] : now.filter((f) => f !== format)))
                }
              />
              {format}
            </label>
          ))}
        </fieldset>
        {data.done > 0 && formats.length > 0 ? (
          <a className={buttonClass("secondary")} href={batchDownloadHref(batchId, formats)} download>
            Download {data.done} as a zip
          </a>
        ) : null}
      </div>
      <ErrorText error={retry.error} />
      <table className="w-full text-left text-sm">
        <thead>
          <tr>
            <th className="py-1 pr-2">Line</th>
            <th className="py-1 pr-2">Link</th>
            <th className="py-1 pr-2">State</th>
            <th className="py-1">Note</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((item) => (
            <tr key={item.line} className="border-t border-stone-100 align-top">
              <td className="py-1 pr-2 tabular-nums">{item.line}</td>
              <td className="max-w-xs truncate py-1 pr-2" title={item.url}>
                {item.url}
              </td>
              <td className="py-1 pr-2">{item.status}</td>
              <td className="py-1 text-stone-600">{item.note ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
