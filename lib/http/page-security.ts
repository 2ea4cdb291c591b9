import type { NextRequest, NextResponse } from "next/server";
import { env } from "@/lib/env";
import { newNonce, pageSecurityHeaders, type PageSecuritySettings } from "@/lib/http/security-headers";

// proxy.ts's half of the security headers: a nonce for this page view, put on the request (Next.js reads
// the nonce from the request's Content-Security-Policy header and adds it to its scripts) and the policy
// and HSTS put on the response.

let cached: PageSecuritySettings | undefined;

function settings(): PageSecuritySettings {
  if (cached) return cached;
  const s = env();
  const uploadOrigins: string[] = [];
  if (s.S3_BUCKET) {
    const endpoint = new URL(s.S3_ENDPOINT ?? `https://s3.${s.S3_REGION}.amazonaws.com`);
    uploadOrigins.push(endpoint.origin);
    // Virtual-hosted style puts the bucket in the host name.
    if (!s.S3_FORCE_PATH_STYLE) uploadOrigins.push(`${endpoint.protocol}//*.${endpoint.host}`);
  }
  const formTargets: string[] = [];
  if (s.AUTH_GITHUB_ID) formTargets.push("https://github.com");
  if (s.AUTH_GOOGLE_ID) formTargets.push("https://accounts.google.com");
  cached = { appUrl: s.APP_URL, uploadOrigins, formTargets };
  return cached;
}

export interface SecuredPage {
  /** The request headers to pass on with NextResponse.next({ request: { headers } }). */
  requestHeaders: Headers;
  /** Puts the policy on a response (NextResponse.next() or a redirect). */
  apply<R extends NextResponse>(response: R): R;
}

export function securePage(request: NextRequest): SecuredPage {
  const headers = pageSecurityHeaders(newNonce(), request.nextUrl.pathname, settings());
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", headers["Content-Security-Policy"]);
  return {
    requestHeaders,
    apply(response) {
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    },
  };
}
