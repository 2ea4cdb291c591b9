import { errorCode, errorMessage } from "@/lib/client/api";
import { readLogin, saveLogin, type StoredLogin } from "./config";
import { httpRequest, type HttpAnswer } from "./http";
import { CliError, EXIT, exitCodeFor } from "./errors";
import { version } from "../package.json";

// The one way the CLI talks to the server: bearer credential, JSON in and out, and every failure turned
// into a CliError with the API's own sentence and the exit code its status or code stands for.

export const USER_AGENT = `verbatim-cli/${version} (node ${process.version})`;

/** VERBATIM_API_KEY wins over a stored login; a login's access token is refreshed when it runs out. */
export type Credential = { kind: "api_key"; token: string } | { kind: "login"; login: StoredLogin } | null;

export interface RequestOptions {
  query?: Record<string, string | number | null | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent form-encoded (the OAuth endpoints). */
  form?: Record<string, string>;
  /** Send the credential (default true); a request that needs one fails with exit 3 when there is none. */
  auth?: boolean;
  signal?: AbortSignal;
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

export interface TokenAnswer {
  access_token: string;
  refresh_token?: string | null;
  expires_in?: number;
}

export function loginFromTokens(tokens: TokenAnswer, now = Date.now()): StoredLogin {
  return {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token ?? null,
    expires_at: tokens.expires_in ? new Date(now + tokens.expires_in * 1000).toISOString() : null,
  };
}

export class Api {
  constructor(
    readonly baseUrl: string,
    public credential: Credential,
  ) {}

  static async connect(baseUrl: string, env: NodeJS.ProcessEnv = process.env): Promise<Api> {
    if (env.VERBATIM_API_KEY) return new Api(baseUrl, { kind: "api_key", token: env.VERBATIM_API_KEY.trim() });
    const login = await readLogin(baseUrl);
    return new Api(baseUrl, login ? { kind: "login", login } : null);
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  /** The answer whatever its status (the device poll reads its RFC-shaped 400s); throws only when unreachable. */
  async call<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T> & { ok: boolean }> {
    const auth = options.auth ?? true;
    if (auth && !this.credential) {
      throw new CliError(`Not logged in to ${this.baseUrl}. Run \`verbatim login\`, or set VERBATIM_API_KEY.`, EXIT.auth, "unauthorized");
    }
    if (auth && this.credential?.kind === "login" && expiresSoon(this.credential.login)) await this.refresh(this.credential.login);
    const sentWith = this.credential;
    let response = await this.send(method, path, options, auth);
    if (response.status === 401 && auth && sentWith?.kind === "login" && sentWith.login.refresh_token) {
      await this.refresh(sentWith.login);
      response = await this.send(method, path, options, auth);
    }
    return { status: response.status, body: parseJson(response.text) as T, ok: response.ok };
  }

  /** The answer of a call that succeeded; a CliError (the API's sentence, its exit code) otherwise. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const answer = await this.call<T>(method, path, options);
    if (!answer.ok) throw this.failure(answer.status, answer.body);
    return answer;
  }

  async get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.request<T>("GET", path, options)).body;
  }

  async post<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return (await this.request<T>("POST", path, { ...options, body })).body;
  }

  private async send(method: string, path: string, options: RequestOptions, auth: boolean): Promise<HttpAnswer> {
    const url = new URL(this.url(path));
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string | number> = { accept: "application/json", "user-agent": USER_AGENT };
    let body: string | undefined;
    if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const token = this.credential?.kind === "api_key" ? this.credential.token : this.credential?.login.access_token;
    if (auth && token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-length"] = Buffer.byteLength(body);
    try {
      return await httpRequest(url, { method, headers, body, signal: options.signal });
    } catch (error) {
      if ((error as Error).name === "AbortError") throw error;
      throw unreachable(this.baseUrl, error);
    }
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
    const expired = new CliError(`Your login to ${this.baseUrl} has expired or was revoked. Run \`verbatim login\`.`, EXIT.auth, "invalid_token");
    if (!stale.refresh_token) throw expired;
    const response = await this.send("POST", "/oauth/token", { form: { grant_type: "refresh_token", refresh_token: stale.refresh_token } }, false);
    if (!response.ok) throw expired;
    const login = loginFromTokens(parseJson(response.text) as TokenAnswer);
    this.credential = { kind: "login", login };
    await saveLogin(this.baseUrl, login);
  }

  private failure(status: number, body: unknown): CliError {
    const code = errorCode(body);
    const message = errorMessage(status, body);
    if (status === 401) {
      const hint = this.credential?.kind === "api_key" ? "Check VERBATIM_API_KEY (`verbatim key show` after `verbatim login`)." : "Run `verbatim login`.";
      return new CliError(`${message} ${hint}`, EXIT.auth, code);
    }
    return new CliError(message, exitCodeFor(status, code), code);
  }
}

export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function expiresSoon(login: StoredLogin): boolean {
  return login.expires_at !== null && Date.parse(login.expires_at) - Date.now() < 30_000;
}

export function unreachable(baseUrl: string, error: unknown): CliError {
  const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const why = failure.code ?? failure.cause?.code ?? failure.cause?.message ?? failure.message;
  return new CliError(`Cannot reach ${baseUrl} (${why}). Is the server up? Choose another with --base-url or VERBATIM_BASE_URL.`, EXIT.upstream, "unreachable");
}
