import type { Metadata } from "next";
import { billingConfigured } from "@/lib/billing/stripe";
import { tierAllowances } from "@/lib/usage/allowance";
import { BillingPanel } from "@/components/dashboard/billing-panel";

export const metadata: Metadata = { title: "Billing" };

export default async function BillingPage({
  searchParams,
}: {
  searchParams: Promise<{ checkout?: string | string[] }>;
}) {
  const { checkout } = await searchParams;
  // Plain numbers (null: no limit) a client component can take.
  const allowances = tierAllowances();
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Billing</h1>
      <BillingPanel
        billingEnabled={billingConfigured()}
        allowances={allowances}
        checkout={checkout === "success" || checkout === "canceled" ? checkout : null}
      />
    </section>
  );
}
