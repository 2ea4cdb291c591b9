import { NextResponse } from "next/server";
import { withApi } from "@/lib/rest/with-api";
import { getPlansEndpoint } from "@/lib/billing/endpoints";
import { getPlans } from "@/lib/billing/plans";

export const dynamic = "force-dynamic";

export const GET = withApi(getPlansEndpoint, async () =>
  NextResponse.json(await getPlans(), { headers: { "cache-control": "public, max-age=60" } }),
);
