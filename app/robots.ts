import type { MetadataRoute } from "next";
import { env } from "@/lib/env";

// Read at request time: APP_URL is a run-time setting.
export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  const base = env().APP_URL;
  return {
    rules: [{ userAgent: "*", allow: ["/", "/t/", "/explore"], disallow: ["/dashboard", "/v1/", "/api/", "/signin"] }],
    sitemap: new URL("/sitemap.xml", base).toString(),
  };
}
