import { Readable } from "node:stream";
import type { Client } from "openapi-fetch";
import { errorCode, errorMessage } from "@/lib/browser/api";
import {
  createVerbatimClient,
  NETWORK_ERROR,
  VerbatimError,
  type CredentialSource,
  type VerbatimClient,
  type components,
  type paths,
} from "@/client/src/index";
import { readLogin, saveLogin, type StoredLogin } from "./config";
import { CliError, EXIT, exitCodeFor } from "./errors";
import { httpStream, nodeFetch } from "./http";
import { version } from "../package.json";

// The CLI talks to the server only through @verbatim/client (the typed client in client/): this file plugs
// the CLI's credential into it (an API key, or a stored login refreshed when it runs out) and turns every
// failure into a CliError with the API's own sentence and the exit code its status or code stands for.

export const USER_AGENT = `verbatim-cli/${version} (node ${process.version})`;

export type Schemas = components["schemas"];

/** VERBATIM_API_KEY wins over a stored login; a login's access token is refreshed when it runs out. */
export type Credential = { kind: "api_key"; token: string } | { kind: "login"; login: StoredLogin } | null;

export type TokenAnswer = Pick<Schemas["TokenResponse"], "access_token"> & {
  refresh_token?: string | null;
  expires_in?: number;
};

export function loginFromTokens(tokens: TokenAnswer, now = Date.now()): StoredLogin {
  return {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? null,
    expires_at: tokens.expires_in ? new Date(now + tokens.expires_in * 1000).toISOString() : null,
  };
}

/** What an openapi-fetch call answers: `data` for a 2xx, the parsed `error` body otherwise. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Form-encoded bodies, for the OAuth endpoints (RFC 6749 and 7009 take no JSON). */
export const formBody = {
  bodySerializer: (body: unknown) => new URLSearchParams(body as Record<string, string>).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded" },
};

export class Api {
  /** Every endpoint, sent with the credential (a call without one fails with exit 3 before anything is sent). */
  readonly client: Client<paths>;
  /** The same client without a credential, for the public endpoints (languages, health, device login, OAuth). */
  readonly anonymous: Client<paths>;
  /** transcribe() and the other helpers of @verbatim/client, with the credential. */
  readonly verbatim: VerbatimClient;

  constructor(
    readonly baseUrl: string,
    public credential: Credential,
  ) {
    const headers = { accept: "application/json", "user-agent": USER_AGENT };
    this.verbatim = createVerbatimClient({ baseUrl, headers, fetch: nodeFetch, credential: this.credentialSource() });
    this.client = this.verbatim.api;
    this.anonymous = createVerbatimClient({ baseUrl, headers, fetch: nodeFetch }).api;
  }

  static async connect(baseUrl: string, env: NodeJS.ProcessEnv = process.env): Promise<Api> {
    if (env.VERBATIM_API_KEY) return new Api(baseUrl, { kind: "api_key", token: env.VERBATIM_API_KEY.trim() });
    const login = await readLogin(baseUrl);
    return new Api(baseUrl, login ? { kind: "login", login } : null);
  }

  /** The call's answer whatever its status (the device poll reads its RFC-shaped 400s); throws only when unreachable. */
  async answer<T>(call: Promise<Answer<T>>): Promise<Answer<T>> {
    try {
      return await call;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** The data of a call that succeeded; a CliError (the API's sentence, its exit code) otherwise. */
  async ok<T>(call: Promise<Answer<T>>): Promise<T> {
    const { data, error, response } = await this.answer(call);
    if (!response.ok) throw this.refusal(response.status, error);
    return data as T;
  }

  /**
   * POST `path` with a JSON body and the credential, the answer's body as a web stream read as it arrives (the typed
   * client's fetch reads a body whole, as text); a refusal is a CliError as for any call.
   */
  async postStream(path: string, body: unknown): Promise<{ headers: Headers; body: ReadableStream<Uint8Array> }> {
    const token = await this.credentialSource().token();
    const json = JSON.stringify(body);
    let answer: Awaited<ReturnType<typeof httpStream>>;
    try {
      answer = await httpStream(new URL(path, this.baseUrl), {
        method: "POST",
        headers: {
          "user-agent": USER_AGENT,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(json),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: json,
      });
    } catch (error) {
      throw unreachable(this.baseUrl, error);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
    if (answer.status < 200 || answer.status >= 300) {
      const chunks: Buffer[] = [];
      for await (const chunk of answer.body) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      let error: unknown = text;
      try {
        error = JSON.parse(text) as unknown;
      } catch {
        // not JSON: the status alone speaks
      }
      throw this.refusal(answer.status, error);
    }
    return { headers, body: Readable.toWeb(answer.body) as ReadableStream<Uint8Array> };
  }

  /** Any failure of a call through the client as a CliError: the server unreachable, an API error, a failed job. */
  failure(error: unknown): Error {
    if (error instanceof CliError || (error as Error | null)?.name === "AbortError") return error as Error;
    if (error instanceof VerbatimError) {
      if (error.code === NETWORK_ERROR) return unreachable(this.baseUrl, error.details?.body ?? error);
      if (error.status !== null) return this.refusal(error.status, error.details?.body);
      return new CliError(error.message, exitCodeFor(null, error.code), error.code);
    }
    return unreachable(this.baseUrl, error);
  }

  private refusal(status: number, body: unknown): CliError {
    const code = errorCode(body);
    const message = errorMessage(status, body);
    if (status === 401) {
      const hint =
        this.credential?.kind === "api_key"
          ? "Check VERBATIM_API_KEY (`verbatim key show` after `verbatim login`)."
          : "Run `verbatim login`.";
      return new CliError(`${message} ${hint}`, EXIT.auth, code);
    }
    return new CliError(message, exitCodeFor(status, code), code);
  }

  private credentialSource(): CredentialSource {
    return {
      token: async () => {
        if (!this.credential)
          throw new CliError(
            `Not logged in to ${this.baseUrl}. Run \`verbatim login\`, or set VERBATIM_API_KEY.`,
            EXIT.auth,
            "unauthorized",
          );
        if (this.credential.kind === "api_key") return this.credential.token;
        if (expiresSoon(this.credential.login)) await this.refresh(this.credential.login);
        return this.currentToken();
      },
      refresh: async (rejected) => {
        if (this.credential?.kind !== "login") return false;
        const login = this.credential.login;
        if (login.access_token !== rejected) return true; // another request rotated it meanwhile
        if (!login.refresh_token) return false;
        await this.refresh(login);
        return true;
      },
    };
  }

  /** Read again after an await: a refresh may have replaced the login meanwhile. */
  private currentToken(): string | null {
    return this.credential?.kind === "login" ? this.credential.login.access_token : (this.credential?.token ?? null);
  }

  private refreshing: Promise<void> | null = null;

  /**
   * Rotates the stored login's tokens (RFC 6749 refresh grant) and saves them. Concurrent requests share one
   * refresh: a refresh token works once, and the server takes a second use as theft and ends the login.
   */
  private async refresh(stale: StoredLogin): Promise<void> {
    if (this.credential?.kind !== "login" || this.credential.login !== stale) return; // already rotated
    this.refreshing ??= this.rotate(stale).finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async rotate(stale: StoredLogin): Promise<void> {
    const expired = new CliError(
      `Your login to ${this.baseUrl} has expired or was revoked. Run \`verbatim login\`.`,
      EXIT.auth,
      "invalid_token",
    );
    if (!stale.refresh_token) throw expired;
    const { data } = await this.answer(
      this.anonymous.POST("/oauth/token", {
        body: { grant_type: "refresh_token", refresh_token: stale.refresh_token },
        ...formBody,
      }),
    );
    if (!data) throw expired;
    const login = loginFromTokens(data);
    this.credential = { kind: "login", login };
    await saveLogin(this.baseUrl, login);
  }
}

function expiresSoon(login: StoredLogin): boolean {
  return login.expires_at !== null && Date.parse(login.expires_at) - Date.now() < 30_000;
}

export function unreachable(baseUrl: string, error: unknown): CliError {
  const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const why = failure.code ?? failure.cause?.code ?? failure.cause?.message ?? failure.message;
  return new CliError(
    `Cannot reach ${baseUrl} (${why}). Is the server up? Choose another with --base-url or VERBATIM_BASE_URL.`,
    EXIT.upstream,
    "unreachable",
  );
}
