"use client";

import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import {
  createWebhook,
  deleteWebhook,
  deliveriesKey,
  deliveryState,
  fetchDeliveries,
  fetchWebhooks,
  redeliver,
  rotateRequestSecret,
  rotateWebhookSecret,
  sendTestEvent,
  WEBHOOK_EVENT_LABELS,
  WEBHOOKS_KEY,
  type WebhookEndpointView,
  type WebhookEventType,
} from "@/lib/browser/webhooks";
import { ErrorText } from "@/components/ui/notice";
import { PanelItem, PanelList, UrlField } from "@/components/dashboard/panel-list";
import { buttonClass } from "@/components/ui/button";
import { formatDateTime } from "@/lib/browser/dates";
import { useHydrated } from "@/components/ui/use-hydrated";

const EVENT_TYPES = Object.keys(WEBHOOK_EVENT_LABELS) as WebhookEventType[];
const button = buttonClass();
const when = (iso: string | null) => (iso ? formatDateTime(iso) : "—");

/** A secret shown once, after creation or rotation. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div role="status" className="flex flex-col gap-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm">
      <p>Copy this signing secret now: it is not shown again.</p>
      <code data-testid="webhook-secret" className="break-all rounded bg-white px-2 py-1 font-mono text-xs">
        {secret}
      </code>
      <button type="button" className={`${button} self-start`} onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** Account webhook endpoints: add, test, rotate, remove; each one's recent deliveries with "send again". */
export function WebhooksPanel() {
  const urlId = useId();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [types, setTypes] = useState<WebhookEventType[]>(EVENT_TYPES);
  const [secret, setSecret] = useState<string | null>(null);
  const endpoints = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: fetchWebhooks });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
  const create = useMutation({
    mutationFn: createWebhook,
    onSuccess: (created) => {
      setUrl("");
      setSecret(created.secret);
      refresh();
    },
  });
  const requestSecret = useMutation({ mutationFn: rotateRequestSecret, onSuccess: (out) => setSecret(out.secret) });
  const hydrated = useHydrated();

  return (
    <div className="flex flex-col gap-6">
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      <form
        className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (url.trim() && types.length > 0) create.mutate({ url: url.trim(), event_types: types });
        }}
      >
        <UrlField id={urlId} value={url} onChange={setUrl} placeholder="https://example.com/hooks/verbatim">
          Endpoint URL (https)
        </UrlField>
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="mb-1">Events</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2">
              <input
                type="checkbox"
                disabled={!hydrated}
                checked={types.includes(type)}
                onChange={(event) =>
                  setTypes((current) => (event.target.checked ? [...current, type] : current.filter((t) => t !== type)))
                }
              />
              {WEBHOOK_EVENT_LABELS[type]} <code className="text-xs text-stone-500">{type}</code>
            </label>
          ))}
        </fieldset>
        <button
          type="submit"
          disabled={!hydrated || create.isPending || types.length === 0}
          className={buttonClass("primary", "lg", "self-start")}
        >
          {create.isPending ? "Adding…" : "Add endpoint"}
        </button>
        <ErrorText error={create.error} />
      </form>

      <PanelList query={endpoints} label="Webhook endpoints" empty="No endpoints yet." loading>
        {(endpoint) => <Endpoint key={endpoint.id} endpoint={endpoint} onSecret={setSecret} onChange={refresh} />}
      </PanelList>

      <section className="flex flex-col gap-2 text-sm text-stone-600">
        <h2 className="text-base font-medium text-stone-900">Per-request webhook_url</h2>
        <p>
          <code>webhook_url</code> on <code>POST /v1/transcript</code> and <code>POST /v1/import</code> is signed with
          one secret of its own.
        </p>
        <button
          type="button"
          className={`${button} self-start`}
          disabled={!hydrated || requestSecret.isPending}
          onClick={() => requestSecret.mutate()}
        >
          Create or replace the request signing secret
        </button>
        {requestSecret.error ? (
          <p role="alert" className="text-red-700">
            {requestSecret.error.message}
          </p>
        ) : null}
      </section>
    </div>
  );
}

function Endpoint({
  endpoint,
  onSecret,
  onChange,
}: {
  endpoint: WebhookEndpointView;
  onSecret: (secret: string) => void;
  onChange: () => void;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const deliveriesId = useId();
  const showDeliveries = () => {
    setOpen(true);
    void queryClient.invalidateQueries({ queryKey: deliveriesKey(endpoint.id) });
  };
  const test = useMutation({ mutationFn: () => sendTestEvent(endpoint.id), onSuccess: showDeliveries });
  const rotate = useMutation({
    mutationFn: () => rotateWebhookSecret(endpoint.id),
    onSuccess: (out) => {
      onSecret(out.secret);
      onChange();
    },
  });
  const remove = useMutation({ mutationFn: () => deleteWebhook(endpoint.id), onSuccess: onChange });
  const failure = test.error ?? rotate.error ?? remove.error;
  return (
    <PanelItem
      testId="webhook-endpoint"
      head={
        <>
          <span className="break-all font-medium">{endpoint.url}</span>
          <span className={`text-sm ${endpoint.enabled ? "text-emerald-700" : "text-red-700"}`}>
            {endpoint.enabled ? "Enabled" : "Disabled"}
          </span>
        </>
      }
    >
      <p className="text-sm text-stone-600">
        {endpoint.event_types.join(", ")} · secret <code>{endpoint.secret}</code>
      </p>
      {!endpoint.enabled ? (
        <p role="status" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          Deliveries stopped: {endpoint.disabled_reason ?? "disabled"} Rotate the secret to turn it back on.
        </p>
      ) : endpoint.failing_since ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Every delivery has failed since {when(endpoint.failing_since)}.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={button}
          disabled={!endpoint.enabled || test.isPending}
          onClick={() => test.mutate()}
        >
          Send a test event
        </button>
        <button
          type="button"
          className={button}
          aria-expanded={open}
          aria-controls={deliveriesId}
          onClick={() => (open ? setOpen(false) : showDeliveries())}
        >
          {open ? "Hide deliveries" : "Recent deliveries"}
        </button>
        <button type="button" className={button} disabled={rotate.isPending} onClick={() => rotate.mutate()}>
          Rotate secret
        </button>
        <button type="button" className={button} onClick={() => setConfirming(true)}>
          Remove
        </button>
      </div>
      {confirming ? (
        <ConfirmBox
          label="Remove endpoint"
          confirmText="Remove"
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
        >
          Remove this endpoint? Deliveries still waiting are not sent.
        </ConfirmBox>
      ) : null}
      <ErrorText error={failure} />
      {open ? <Deliveries endpoint={endpoint} id={deliveriesId} /> : null}
    </PanelItem>
  );
}

function Deliveries({ endpoint, id }: { endpoint: WebhookEndpointView; id: string }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: deliveriesKey(endpoint.id),
    queryFn: () => fetchDeliveries(endpoint.id),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === "pending") ? 2000 : false),
  });
  const again = useMutation({
    mutationFn: (deliveryId: string) => redeliver(endpoint.id, deliveryId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: deliveriesKey(endpoint.id) }),
  });
  if (deliveries.isPending) return <p className="text-sm text-stone-500">Loading…</p>;
  if (deliveries.error) return <ErrorText error={deliveries.error} />;
  if (deliveries.data.length === 0) return <p className="text-sm text-stone-500">No deliveries yet.</p>;
  return (
    <div id={id} className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label={`Deliveries to ${endpoint.url}`}>
        <thead className="text-stone-500">
          <tr>
            <th className="py-1 pr-3 font-normal">Event</th>
            <th className="py-1 pr-3 font-normal">Status</th>
            <th className="py-1 pr-3 font-normal">Attempts</th>
            <th className="py-1 pr-3 font-normal">Next try</th>
            <th className="py-1 pr-3 font-normal">Sent</th>
            <th className="py-1 font-normal">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.map((d) => (
            <tr key={d.id} className="border-t border-stone-100" data-testid="webhook-delivery">
              <td className="py-1 pr-3">
                <code className="text-xs">{d.event_type}</code>
              </td>
              <td className="py-1 pr-3">{deliveryState(d)}</td>
              <td className="py-1 pr-3">{d.attempts}</td>
              <td className="py-1 pr-3">{d.status === "pending" ? when(d.next_attempt_at) : "—"}</td>
              <td className="py-1 pr-3">{when(d.last_attempt_at)}</td>
              <td className="py-1">
                {d.status !== "pending" && endpoint.enabled ? (
                  <button
                    type="button"
                    className="text-stone-600 underline decoration-stone-300 hover:text-stone-900"
                    disabled={again.isPending}
                    onClick={() => again.mutate(d.id)}
                  >
                    Send again
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorText error={again.error} />
    </div>
  );
}
