import { withApi } from "@/lib/rest/with-api";
import { portalEndpoint } from "@/lib/billing/endpoints";
import { createPortalSession } from "@/lib/billing/manage-subscription";

export const POST = withApi(portalEndpoint, ({ principal }) => createPortalSession(principal.userId));
