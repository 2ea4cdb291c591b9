import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ApiError } from "@/lib/http/errors";
import { findConsentClient, type ConsentClient } from "@/lib/oauth/authorize";
import { canonicalResource, grantedScope, issuer } from "@/lib/oauth/config";
import { pagePath, requireSignedIn } from "@/lib/oauth/sign-in-gate";
import { ConsentDecision } from "@/components/oauth/decision-buttons";

export const metadata: Metadata = { title: "Allow access" };
export const dynamic = "force-dynamic";

const SCOPE_TEXT: Record<string, string> = {
  api: "Use Verbatim as you: create transcripts (from your allowance), read your history and transcripts, publish and unpublish.",
};

// The authorization endpoint (RFC 6749 4.1.1) as a consent page: signed out, sign in and come back;
// an unknown client or redirect URI is shown here and never redirected to; anything else wrong with
// the request goes back to the app's (registered) redirect URI as an error.
export default async function ConsentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const one = (name: string) => (typeof params[name] === "string" ? (params[name] as string) : null);
  const user = await requireSignedIn(pagePath("/oauth/authorize", params));

  let consent: ConsentClient;
  try {
    consent = await findConsentClient(one("client_id"), one("redirect_uri"));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return (
      <main className="mx-auto flex max-w-md flex-col gap-4 px-6 py-24">
        <h1 className="text-2xl font-semibold">This link cannot be used</h1>
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error.detail}
        </p>
      </main>
    );
  }

  const back = (error: string, description: string) => {
    const url = new URL(consent.redirectUri);
    url.searchParams.set("error", error);
    url.searchParams.set("error_description", description);
    if (one("state")) url.searchParams.set("state", one("state")!);
    url.searchParams.set("iss", issuer());
    redirect(url.toString());
  };
  if (one("response_type") !== "code") back("unsupported_response_type", "The only response_type is 'code'.");
  const challenge = one("code_challenge");
  if (!challenge || !/^[A-Za-z0-9._~-]{43,128}$/.test(challenge)) back("invalid_request", "PKCE is required: send code_challenge (S256).");
  if ((one("code_challenge_method") ?? "S256") !== "S256") back("invalid_request", "code_challenge_method must be S256.");
  const scope = grantedScope(one("scope"));
  if (!scope) back("invalid_scope", "Unknown scope; the only scope is 'api'.");
  const resource = canonicalResource(one("resource"));
  if (!resource) back("invalid_target", "Unknown resource.");

  return (
    <main className="mx-auto flex max-w-md flex-col gap-6 px-6 py-24">
      <h1 className="text-2xl font-semibold">
        Allow <span data-testid="consent-client">{consent.name ?? "an unnamed app"}</span> to use your Verbatim account?
      </h1>
      <p className="text-sm text-stone-600">Signed in as {user.email ?? "you"}.</p>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-stone-500">App</dt>
        <dd>
          {consent.name ?? "not named"} <span className="font-mono text-xs text-stone-500">({consent.clientId})</span>
        </dd>
        <dt className="text-stone-500">Sends you back to</dt>
        <dd className="font-mono" data-testid="consent-redirect-host">
          {consent.redirectHost}
        </dd>
        <dt className="text-stone-500">It may</dt>
        <dd>
          <ul className="list-disc pl-4">
            {scope!.split(" ").map((name) => (
              <li key={name}>{SCOPE_TEXT[name] ?? name}</li>
            ))}
          </ul>
        </dd>
        <dt className="text-stone-500">For</dt>
        <dd className="font-mono text-xs">{resource}</dd>
      </dl>
      <p className="text-sm text-stone-600">You can disconnect it any time. Only allow apps you trust.</p>
      <ConsentDecision
        request={{
          client_id: consent.clientId,
          redirect_uri: consent.redirectUri,
          code_challenge: challenge!,
          code_challenge_method: "S256",
          state: one("state"),
          scope,
          resource: one("resource"),
        }}
      />
    </main>
  );
}
