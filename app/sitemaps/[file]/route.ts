import { sitemapPartResponse } from "@/lib/publishing/sitemap";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return (await sitemapPartResponse((await params).file)) ?? new Response("Not found", { status: 404 });
}
