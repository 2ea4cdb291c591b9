import type { Metadata } from "next";
import { WebhooksPanel } from "@/components/dashboard/webhooks-panel";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Webhooks</h1>
      <p className="text-sm text-stone-600">
        Be told when a transcription job or an import finishes instead of polling: Verbatim POSTs signed events
        (Standard Webhooks) to your endpoints, and retries for about a day when they do not answer 2xx.
      </p>
      <WebhooksPanel />
    </section>
  );
}
