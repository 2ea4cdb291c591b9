import type { Endpoint } from "@/lib/http/endpoint";
import * as alerts from "@/lib/alerts/endpoints";
import * as apiKeys from "@/lib/auth/endpoints";
import * as batches from "@/lib/batches/endpoints";
import * as billing from "@/lib/billing/endpoints";
import * as edits from "@/lib/edits/endpoints";
import * as exportsEndpoints from "@/lib/exports/endpoints";
import * as follows from "@/lib/follows/endpoints";
import * as health from "@/lib/health/endpoints";
import * as imports from "@/lib/imports/endpoints";
import * as podcasts from "@/lib/podcasts/endpoints";
import * as oauth from "@/lib/oauth/endpoints";
import * as publishing from "@/lib/publishing/endpoints";
import * as scim from "@/lib/scim/endpoints";
import * as search from "@/lib/search/endpoints";
import * as teams from "@/lib/teams/endpoints";
import * as teamDomains from "@/lib/teams/domain-endpoints";
import * as transcripts from "@/lib/transcripts/endpoints";
import * as uploads from "@/lib/uploads/endpoints";
import * as usage from "@/lib/usage/endpoints";
import * as webhooks from "@/lib/webhooks/endpoints";

// Every endpoint the app serves, for /openapi.json. A test checks this against app/**/route.ts.
export const allEndpoints: Endpoint[] = [
  alerts,
  apiKeys,
  batches,
  billing,
  edits,
  exportsEndpoints,
  follows,
  health,
  imports,
  oauth,
  podcasts,
  publishing,
  scim,
  search,
  teams,
  teamDomains,
  transcripts,
  uploads,
  usage,
  webhooks,
].flatMap((module) => Object.values(module));
