import { withApi } from "@/lib/http/with-api";
import { healthEndpoint } from "@/lib/health/endpoints";
import { checkHealth } from "@/lib/health/check-health";

export const dynamic = "force-dynamic";

export const GET = withApi(healthEndpoint, () => checkHealth());
