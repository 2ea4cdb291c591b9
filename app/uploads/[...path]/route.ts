import type { NextRequest } from "next/server";
import { receiveUploadResponse } from "@/lib/uploads/receive-upload";

// The embedded store's signed PUT target (not part of /v1: authorised by the URL's signature).
export const PUT = (request: NextRequest, { params }: { params: Promise<{ path: string[] }> }) =>
  receiveUploadResponse(request, params);
