import { withApi } from "@/lib/rest/with-api";
import { publicDownloadEndpoint } from "@/lib/publishing/endpoints";
import { publicDownloadResponse } from "@/lib/publishing/public-transcript";
import { corsPreflight } from "@/lib/http/cors";

export const GET = withApi(publicDownloadEndpoint, ({ request, params, query }) =>
  publicDownloadResponse(request, params.slug, query.format),
);

export const OPTIONS = corsPreflight;
