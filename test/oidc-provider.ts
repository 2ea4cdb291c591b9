import http from "node:http";
import Provider, { type Configuration } from "oidc-provider";

// A real OpenID Connect provider for the sign-in tests: `oidc-provider` (the certified Node.js implementation) with
// its development sign-in pages (any login and password; the login is the account's `sub`). The test decides each
// person's claims, and may change them between sign-ins (a group removed at the provider). Its one lie on demand:
// `impersonate()` makes the configured issuer's address answer with another issuer's discovery document, as a
// wrong OIDC_ISSUER (or a hijacked address) would.

/** The claims the provider releases for a person. */
export interface ProviderPerson {
  email: string;
  email_verified: boolean;
  name?: string;
  groups?: string[];
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or replaces the person whose login is `sub`. */
  setPerson(sub: string, person: ProviderPerson): void;
  /** From now on (until called with false) the issuer's address serves another issuer's metadata. */
  impersonate(on: boolean): void;
  close(): Promise<void>;
}

function configuration(people: Map<string, ProviderPerson>, client: Configuration["clients"]): Configuration {
  return {
    clients: client,
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    scopes: ["openid", "email", "profile", "groups"],
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ["verbatim-tests-only-cookie-key"] },
    async findAccount(_ctx, sub) {
      if (!people.has(sub)) return undefined;
      return {
        accountId: sub,
        // Read at each use: a change between sign-ins is what the next sign-in sees.
        async claims() {
          return { sub, ...people.get(sub)! };
        },
      };
    },
  };
}

/** Starts the provider on 127.0.0.1:`port`, with one confidential client redirecting to `redirectUri`. */
export async function startOidcProvider(port: number, redirectUri: string): Promise<TestOidcProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "verbatim-e2e";
  const clientSecret = "verbatim-e2e-client-secret";
  const clients = [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ] satisfies Configuration["clients"];
  const people = new Map<string, ProviderPerson>();
  const provider = new Provider(issuer, configuration(people, clients));
  const impostor = new Provider("http://impostor.example.test", configuration(people, clients));
  // Why the provider refused a request, for the test's output (its answers say only "invalid_grant").
  for (const event of ["grant.error", "server_error", "authorization.error", "userinfo.error"])
    provider.on(event, (_ctx: unknown, error: Error & { error_detail?: string }) =>
      console.error(`oidc-provider ${event}: ${error.message} ${error.error_detail ?? ""}`),
    );
  const [real, fake] = [provider.callback(), impostor.callback()];
  let impersonating = false;
  const server = http.createServer((request, response) => (impersonating ? fake : real)(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    issuer,
    clientId,
    clientSecret,
    setPerson: (sub, person) => void people.set(sub, person),
    impersonate: (on) => void (impersonating = on),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
