import { rootProtectedResourceResponse } from "@/lib/mcp/metadata-route";

export const GET = rootProtectedResourceResponse;
