import { billingApi, type PaidTier } from "@/lib/browser/billing";
import type { Subscription } from "@/lib/browser/transcripts";

/** What the billing panel can ask for; each is one call of the billing API. */
export type Operation =
  | { kind: "checkout" | "upgrade" | "downgrade"; tier: PaidTier }
  | { kind: "portal" | "reconcile" | "cancel" | "resume" | "undo-change" };

/** Operations that change what the user pays, confirmed before they are sent. */
export type Confirmable = { kind: "upgrade" | "downgrade"; tier: PaidTier } | { kind: "cancel" };

export function runOperation(operation: Operation): Promise<{ url: string } | Subscription> {
  switch (operation.kind) {
    case "checkout":
      return billingApi.checkout(operation.tier);
    case "portal":
      return billingApi.portal();
    case "reconcile":
      return billingApi.reconcile();
    case "cancel":
      return billingApi.cancel();
    case "resume":
      return billingApi.resume();
    case "upgrade":
    case "downgrade":
      return billingApi.change(operation.tier);
    case "undo-change":
      return billingApi.undoChange();
  }
}
