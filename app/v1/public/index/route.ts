import { NextResponse } from "next/server";
import { withApi } from "@/lib/rest/with-api";
import { publicIndexEndpoint } from "@/lib/publishing/endpoints";
import { publicIndex } from "@/lib/publishing/public-index";

export const GET = withApi(publicIndexEndpoint, async ({ query }) =>
  NextResponse.json(await publicIndex(query), { headers: { "Cache-Control": "public, max-age=60, s-maxage=60" } }),
);
