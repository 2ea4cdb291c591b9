import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CliError, EXIT } from "./errors";

// Logins live in the user's config directory ($XDG_CONFIG_HOME/verbatim, else ~/.config/verbatim; %APPDATA%
// on Windows), one per server, in a file only the user can read (0600, its folder 0700).

export const DEFAULT_BASE_URL = "http://localhost:3000";

export interface StoredLogin {
  access_token: string;
  refresh_token: string | null;
  /** ISO time the access token expires. */
  expires_at: string | null;
}

interface ConfigFile {
  /** The server of the last login, used when neither --base-url nor VERBATIM_BASE_URL names one. */
  default_base_url?: string;
  logins: Record<string, StoredLogin>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, "verbatim");
  if (process.platform === "win32" && env.APPDATA) return path.join(env.APPDATA, "verbatim");
  return path.join(os.homedir(), ".config", "verbatim");
}

export const credentialsPath = () => path.join(configDir(), "credentials.json");

async function readConfig(): Promise<ConfigFile> {
  try {
    const parsed = JSON.parse(await readFile(credentialsPath(), "utf8")) as Partial<ConfigFile>;
    return { ...parsed, logins: parsed.logins && typeof parsed.logins === "object" ? parsed.logins : {} };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { logins: {} };
    throw new CliError(
      `Cannot read ${credentialsPath()}: ${(error as Error).message}. Delete it and run \`verbatim login\`.`,
      EXIT.other,
    );
  }
}

async function writeConfig(config: ConfigFile): Promise<void> {
  const file = credentialsPath();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600); // the umask may have taken bits away, never added: this is belt and braces
  await rename(temporary, file);
}

/** `--base-url`, else VERBATIM_BASE_URL, else the server of the last login, else the local default. */
export async function resolveBaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const chosen = flag ?? env.VERBATIM_BASE_URL ?? (await readConfig()).default_base_url ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(chosen);
  } catch {
    throw new CliError(`Not a URL: ${chosen}. Pass --base-url https://… or set VERBATIM_BASE_URL.`, EXIT.usage);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(`The base URL must be http or https, not ${url.protocol}`, EXIT.usage);
  return url.href.replace(/\/+$/, "");
}

export async function readLogin(baseUrl: string): Promise<StoredLogin | null> {
  return (await readConfig()).logins[baseUrl] ?? null;
}

export async function saveLogin(baseUrl: string, login: StoredLogin): Promise<void> {
  const config = await readConfig();
  config.logins[baseUrl] = login;
  config.default_base_url = baseUrl;
  await writeConfig(config);
}

export async function removeLogin(baseUrl: string): Promise<boolean> {
  const config = await readConfig();
  if (!config.logins[baseUrl]) return false;
  delete config.logins[baseUrl];
  if (Object.keys(config.logins).length === 0) await rm(credentialsPath(), { force: true });
  else await writeConfig(config);
  return true;
}
