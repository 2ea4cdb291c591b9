import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/nextauth";
import { checkAuthorizationRequest, errorRedirectFor } from "@/lib/oauth/authorization-request";
import { CONNECTOR_CAN, connectorCannot } from "@/lib/oauth/consent-text";
import { pagePath, requireSignedIn } from "@/lib/oauth/sign-in-gate";
import { ConsentDecision } from "@/components/oauth/decision-buttons";
import { SiteHeader } from "@/components/site/site-header";
import { ClientError } from "@/app/oauth/authorize/client-error";
import { grantWorkspaces } from "@/lib/auth/dashboard-workspace";

export const metadata: Metadata = { title: "Allow access" };
export const dynamic = "force-dynamic";

const QUERY = [
  "client_id",
  "redirect_uri",
  "response_type",
  "code_challenge",
  "code_challenge_method",
  "scope",
  "resource",
  "state",
] as const;

// The authorization endpoint (RFC 6749 4.1.1) as a consent page: signed out, sign in and come back.
// An unknown client or redirect URI is shown here; anything else wrong with the request (response_type,
// PKCE, scope, resource) goes back to the client's registered redirect URI (RFC 6749 4.1.2.1): by itself for a
// client the signed-in person approved before, else by a link on a page that names the client and where the link
// leads (lib/oauth/authorization-request.ts, docs/decisions/0003).
export default async function ConsentPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const one = (name: string) => (typeof params[name] === "string" ? (params[name] as string) : null);
  const checked = await checkAuthorizationRequest(Object.fromEntries(QUERY.map((name) => [name, one(name)])));
  if (!checked.ok && checked.redirectTo && checked.client) {
    const automatic = await errorRedirectFor(checked, (await auth())?.user?.id ?? null);
    if (automatic) redirect(automatic);
    return (
      <ClientError
        client={checked.client}
        error={checked.error}
        description={checked.description}
        redirectTo={checked.redirectTo}
      />
    );
  }
  const user = await requireSignedIn(pagePath("/oauth/authorize", params));
  if (!checked.ok) {
    return (
      <div className="min-h-screen">
        <SiteHeader />
        <main id="main" className="mx-auto flex max-w-md flex-col gap-4 px-6 py-24">
          <h1 className="text-2xl font-semibold">This link cannot be used</h1>
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {checked.description} <span className="font-mono text-xs">({checked.error})</span>
          </p>
          <p className="text-sm text-stone-600">
            Nothing was shared with the app. Go back to it and try connecting again, or tell its maker.
          </p>
        </main>
      </div>
    );
  }
  const { consent, codeChallenge, scope, resource, state } = checked.request;
  const workspaces = await grantWorkspaces(user.id);

  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-md flex-col gap-6 px-6 py-24">
        <h1 className="text-2xl font-semibold">
          Allow <span data-testid="consent-client">{consent.name ?? "an unnamed app"}</span> to use your Verbatim
          account?
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
            <ul className="list-disc pl-4" data-testid="consent-can">
              {CONNECTOR_CAN.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </dd>
          <dt className="text-stone-500">It may not</dt>
          <dd>
            <ul className="list-disc pl-4" data-testid="consent-cannot">
              {connectorCannot().map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </dd>
          <dt className="text-stone-500">For</dt>
          <dd data-testid="consent-service">Verbatim, your transcripts and history</dd>
        </dl>
        <p className="text-sm text-stone-600">
          You can disconnect it any time on the dashboard’s API keys page; that ends everything it can do. Only allow
          apps you trust.
        </p>
        <ConsentDecision
          workspaces={workspaces}
          request={{
            client_id: consent.clientId,
            redirect_uri: consent.redirectUri,
            code_challenge: codeChallenge,
            code_challenge_method: "S256",
            state,
            scope,
            resource,
          }}
        />
      </main>
    </div>
  );
}
