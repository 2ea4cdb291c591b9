import type { Endpoint } from "@/lib/http/endpoint";
import * as apiKeys from "@/lib/auth/endpoints";
import * as health from "@/lib/health/endpoints";

// Every endpoint the app serves, for /openapi.json. A test checks this against app/**/route.ts.
export const allEndpoints: Endpoint[] = [...Object.values(apiKeys), ...Object.values(health)];
