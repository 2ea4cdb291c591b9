import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/nextauth";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";

/**
 * The signed-in user of the /device and consent pages; signed out, the visit goes to sign-in and comes
 * back to `returnTo` afterwards (through safe-redirect.ts, the one rule for redirects after sign-in).
 */
export async function requireSignedIn(returnTo: string): Promise<{ id: string; email: string | null }> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) redirect(`/signin?callbackUrl=${encodeURIComponent(safeCallbackPath(returnTo, "/dashboard"))}`);
  return { id, email: session?.user?.email ?? null };
}

/**
 * The page's own path and query, rebuilt from its search params (for the round trip through sign-in).
 * "/" and ":" stay as they are (both are plain characters in a query): safe-redirect.ts refuses
 * percent-encoded slashes anywhere, and the consent page's redirect_uri and resource are full of them.
 */
export function pagePath(pathname: string, params: Record<string, string | string[] | undefined>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === "string") parts.push(`${encode(key)}=${encode(value)}`);
  }
  return parts.length ? `${pathname}?${parts.join("&")}` : pathname;
}

function encode(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, "/").replace(/%3A/gi, ":");
}
