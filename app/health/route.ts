import { withApi } from "@/lib/rest/with-api";
import { healthEndpoint } from "@/lib/health/endpoints";
import { healthResponse } from "@/lib/health/check-health";

export const dynamic = "force-dynamic";

export const GET = withApi(healthEndpoint, ({ request }) => healthResponse(request));
