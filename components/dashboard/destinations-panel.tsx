"use client";

import { useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmBox } from "@/components/dashboard/confirm-box";
import { PanelItem, PanelList } from "@/components/dashboard/panel-list";
import { buttonClass } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { ErrorText } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { formatDateTime } from "@/lib/browser/dates";
import {
  createDestination,
  deleteDestination,
  deliveryCounts,
  DESTINATIONS_KEY,
  DESTINATIONS_POLL_MS,
  destinationProblem,
  destinationTarget,
  fetchDestinations,
  type DestinationView,
  type NewDestination,
} from "@/lib/browser/destinations";

const STATE_LABEL = { ok: "Delivering", failing: "Failing", disabled: "Stopped" } as const;
const STATE_CLASS = { ok: "text-emerald-700", failing: "text-amber-800", disabled: "text-red-700" } as const;

/** The workspace's export destinations: add a folder or a Notion database, see each one's deliveries, remove it. */
export function DestinationsPanel() {
  const queryClient = useQueryClient();
  const destinations = useQuery({
    queryKey: DESTINATIONS_KEY,
    queryFn: fetchDestinations,
    refetchInterval: DESTINATIONS_POLL_MS,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: DESTINATIONS_KEY });
  return (
    <div className="flex flex-col gap-6">
      <AddDestination onAdded={refresh} />
      <PanelList query={destinations} label="Export destinations" empty="No destinations yet." loading>
        {(destination) => <Destination key={destination.id} destination={destination} onChange={refresh} />}
      </PanelList>
    </div>
  );
}

function AddDestination({ onAdded }: { onAdded: () => void }) {
  const ids = { name: useId(), path: useId(), database: useId(), token: useId() };
  const hydrated = useHydrated();
  const [kind, setKind] = useState<NewDestination["kind"]>("notion");
  const [name, setName] = useState("");
  const [path, setPath] = useState("");
  const [databaseId, setDatabaseId] = useState("");
  const [token, setToken] = useState("");
  const create = useMutation({
    mutationFn: createDestination,
    onSuccess: () => {
      setName("");
      setPath("");
      setDatabaseId("");
      // The token is sent once and never shown again: nothing keeps it here either.
      setToken("");
      onAdded();
    },
  });
  const named = name.trim() ? { name: name.trim() } : {};
  return (
    <form
      aria-label="Add a destination"
      className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          kind === "folder"
            ? { kind, ...named, path: path.trim() }
            : { kind, ...named, database_id: databaseId.trim(), token: token.trim() },
        );
      }}
    >
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1 font-medium">Deliver to</legend>
        {(["notion", "folder"] as const).map((option) => (
          <label key={option} className="flex items-center gap-2">
            <input
              type="radio"
              name="destination-kind"
              value={option}
              disabled={!hydrated}
              checked={kind === option}
              onChange={() => setKind(option)}
            />
            {option === "notion" ? "A Notion database" : "A folder on this server"}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name (optional)" htmlFor={ids.name}>
          <Input id={ids.name} value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
        </Field>
        {kind === "folder" ? (
          <Field label="Folder, under the server's export folder" htmlFor={ids.path}>
            <Input
              id={ids.path}
              required
              value={path}
              maxLength={500}
              placeholder="vault/Transcripts"
              onChange={(event) => setPath(event.target.value)}
            />
          </Field>
        ) : (
          <>
            <Field label="Notion database id" htmlFor={ids.database}>
              <Input
                id={ids.database}
                required
                value={databaseId}
                placeholder="0f3c7a1e98b24c559d1a2b7e6f0c4d11"
                autoComplete="off"
                onChange={(event) => setDatabaseId(event.target.value)}
              />
            </Field>
            <Field label="Integration token (stored encrypted, never shown again)" htmlFor={ids.token}>
              <Input
                id={ids.token}
                type="password"
                required
                value={token}
                autoComplete="off"
                onChange={(event) => setToken(event.target.value)}
              />
            </Field>
          </>
        )}
      </div>
      <button
        type="submit"
        disabled={!hydrated || create.isPending}
        className={buttonClass("primary", "lg", "self-start")}
      >
        {create.isPending ? "Adding…" : "Add destination"}
      </button>
      <ErrorText error={create.error} />
    </form>
  );
}

function Destination({ destination, onChange }: { destination: DestinationView; onChange: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({ mutationFn: () => deleteDestination(destination.id), onSuccess: onChange });
  const problem = destinationProblem(destination);
  return (
    <PanelItem
      testId="export-destination"
      head={
        <>
          <span className="break-all font-medium">{destination.name}</span>
          <span className={`text-sm ${STATE_CLASS[destination.state]}`}>
            {destination.state === "ok" && !destination.last_delivered_at ? "Ready" : STATE_LABEL[destination.state]}
          </span>
        </>
      }
    >
      <p className="break-all text-sm text-stone-600">{destinationTarget(destination)}</p>
      <p className="text-sm text-stone-600" data-testid="destination-deliveries">
        {deliveryCounts(destination)}
        {destination.last_delivered_at ? ` · last ${formatDateTime(destination.last_delivered_at)}` : ""}
      </p>
      {problem ? (
        <p
          role="status"
          data-testid="destination-problem"
          className={`rounded-md px-3 py-2 text-sm ${
            destination.state === "disabled" ? "bg-red-50 text-red-800" : "bg-amber-50 text-amber-900"
          }`}
        >
          {problem}
        </p>
      ) : null}
      {destination.last_note ? <p className="text-sm text-stone-600">{destination.last_note}</p> : null}
      <button type="button" className={`${buttonClass()} self-start`} onClick={() => setConfirming(true)}>
        Remove
      </button>
      {confirming ? (
        <ConfirmBox
          label="Remove destination"
          confirmText="Remove"
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
        >
          Remove this destination? What it already wrote stays where it is; nothing more is delivered to it.
        </ConfirmBox>
      ) : null}
      <ErrorText error={remove.error} />
    </PanelItem>
  );
}
