"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import { buttonClass } from "@/components/ui/button";
import { formatDateTime } from "@/lib/browser/dates";

interface Connection {
  id: string;
  kind: "connector" | "device";
  name: string;
  client_id: string | null;
  scope: string;
  connected_at: string;
  last_used_at: string | null;
}

const QUERY = ["connections"];

/** Connected apps: OAuth connectors and device logins, when each was last used, and disconnect. */
export function ConnectionsPanel() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: QUERY, queryFn: () => apiFetch<{ items: Connection[] }>("/v1/me/connections") });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ revoked: number }>(`/v1/me/connections/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: QUERY }),
  });
  const items = list.data?.items ?? [];
  return (
    <section className="flex flex-col gap-3" aria-label="Connected apps">
      <h2 className="text-lg font-semibold">Connected apps</h2>
      <p className="text-sm text-stone-600">
        Apps you allowed (such as AI connectors) and devices you signed in with a code. Disconnect one and its access
        ends at once.
      </p>
      {list.isPending && <p className="text-sm text-stone-500">Loading…</p>}
      {list.isError && (
        <p role="alert" className="text-sm text-red-700">
          {list.error.message}
        </p>
      )}
      {list.isSuccess && items.length === 0 && <p className="text-sm text-stone-500">No connected apps.</p>}
      {items.length > 0 && (
        <table className="w-full text-left text-sm">
          <thead className="text-stone-500">
            <tr>
              <th className="py-1 font-normal">App</th>
              <th className="py-1 font-normal">Kind</th>
              <th className="py-1 font-normal">Connected</th>
              <th className="py-1 font-normal">Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} className="border-t border-stone-200" data-testid="connection">
                <td className="py-2">{item.name}</td>
                <td className="py-2">{item.kind === "device" ? "Device login" : "App"}</td>
                <td className="py-2">{formatDateTime(item.connected_at)}</td>
                <td className="py-2">{item.last_used_at ? formatDateTime(item.last_used_at) : "never"}</td>
                <td className="py-2 text-right">
                  <button
                    type="button"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(item.id)}
                    className={buttonClass("secondary", "sm")}
                  >
                    Disconnect
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoke.isError && (
        <p role="alert" className="text-sm text-red-700">
          {revoke.error.message}
        </p>
      )}
    </section>
  );
}
