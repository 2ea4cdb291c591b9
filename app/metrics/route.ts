import { scrapeMetrics } from "@/lib/observability/scrape-metrics";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => scrapeMetrics(request);
