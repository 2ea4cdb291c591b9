import { NextResponse } from "next/server";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

export function GET() {
  return NextResponse.json(buildOpenApiDocument(env().APP_URL));
}
