import { scrapeMetrics } from "@/lib/health/scrape-metrics";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => scrapeMetrics(request);
