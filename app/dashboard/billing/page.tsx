import type { Metadata } from "next";
import { billingConfigured } from "@/lib/billing/stripe";
import { tierAllowances } from "@/lib/usage/allowance";
import { BillingPanel } from "@/components/dashboard/billing-panel";
import { RoleNotice } from "@/components/dashboard/role-notice";
import { dashboardWorkspace, missingRole } from "@/lib/auth/dashboard-workspace";
import { checkoutEndpoint } from "@/lib/billing/endpoints";

export const metadata: Metadata = { title: "Billing" };

export default async function BillingPage({
  searchParams,
}: {
  searchParams: Promise<{ checkout?: string | string[] }>;
}) {
  const { checkout } = await searchParams;
  // Plain numbers (null: no limit) a client component can take.
  const allowances = tierAllowances();
  const found = await dashboardWorkspace();
  const needed = found ? missingRole(found.workspace, checkoutEndpoint) : null;
  if (found && needed)
    return (
      <section className="flex flex-col gap-6">
        <h1 className="text-2xl font-semibold">Billing</h1>
        <RoleNotice workspace={found.workspace} needed={needed} what="The team's plan and billing" />
      </section>
    );
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
