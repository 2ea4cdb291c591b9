import { buttonClass } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { SiteHeader } from "@/components/site/site-header";
import type { ConsentClient } from "@/lib/oauth/authorize";

/**
 * A failed authorization request of a client the person has not approved before: named, with where it leads,
 * and a link back carrying the error, `state` and `iss` for the app waiting there. Never followed by itself:
 * anyone can register a client, and an automatic redirect would make this an open redirector (RFC 9700 4.11.2).
 */
export function ClientError({
  client,
  error,
  description,
  redirectTo,
}: {
  client: ConsentClient;
  error: string;
  description: string;
  redirectTo: string;
}) {
  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-md flex-col gap-4 px-6 py-24">
        <h1 className="text-2xl font-semibold">This app’s request cannot be used</h1>
        <Notice tone="error" data-testid="authorize-error">
          {description} <span className="font-mono text-xs">({error})</span>
        </Notice>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-stone-500">App</dt>
          <dd data-testid="authorize-error-client">
            {client.name ?? "not named"} <span className="font-mono text-xs text-stone-500">({client.clientId})</span>
          </dd>
          <dt className="text-stone-500">Link leads to</dt>
          <dd className="font-mono" data-testid="authorize-error-host">
            {client.redirectHost}
          </dd>
        </dl>
        <p className="text-sm text-stone-600">
          Nothing was shared with the app. You have not connected it before, so you are not sent there by yourself:
          follow the link only if you trust that address; the app then hears of the error.
        </p>
        <p>
          <a
            href={redirectTo}
            rel="noreferrer"
            className={buttonClass("secondary", "md")}
            data-testid="authorize-error-back"
          >
            Back to {client.redirectHost}
          </a>
        </p>
      </main>
    </div>
  );
}
