import { serveDocsAsset } from "@/lib/openapi/docs-assets";

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  return serveDocsAsset((await params).file);
}
