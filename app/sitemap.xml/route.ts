import { sitemapIndexResponse } from "@/lib/publishing/sitemap";

export const dynamic = "force-dynamic";

export function GET(): Promise<Response> {
  return sitemapIndexResponse();
}
