import type { Metadata } from "next";
import { env } from "@/lib/env";
import { ApiKeyPanel } from "@/components/dashboard/api-key-panel";
import { SessionsPanel } from "@/components/dashboard/sessions-panel";
import { ConnectionsPanel } from "@/components/dashboard/connections-panel";

export const metadata: Metadata = { title: "API key" };

export default function KeysPage() {
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">API key</h1>
      <ApiKeyPanel baseUrl={env().APP_URL} />
      <ConnectionsPanel />
      <SessionsPanel />
    </section>
  );
}
