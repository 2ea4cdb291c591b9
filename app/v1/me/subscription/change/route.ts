import { withApi } from "@/lib/rest/with-api";
import { changeTierEndpoint, undoTierChangeEndpoint } from "@/lib/billing/endpoints";
import { changeTier, undoTierChange } from "@/lib/billing/manage-subscription";

export const POST = withApi(changeTierEndpoint, ({ principal, body }) => changeTier(principal.userId, body.tier));
export const DELETE = withApi(undoTierChangeEndpoint, ({ principal }) => undoTierChange(principal.userId));
