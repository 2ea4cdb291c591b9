// The part of oidc-provider's API the tests use (the package ships no types; @types/oidc-provider would be a second
// dependency for four lines).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  export interface Configuration {
    clients: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    scopes?: string[];
    features?: Record<string, { enabled: boolean }>;
    pkce?: { required: () => boolean };
    cookies?: { keys: string[] };
    findAccount(ctx: unknown, sub: string): Promise<Account | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: never[]) => void): this;
  }
}
