// Who is signed in, where: the person's Verbatim, the client it registered there, and the OAuth tokens of the
// `extension` scope. Only tokens are kept: the extension never sees or holds an API key.
import { browserApi } from "./browser-api";

export interface Session {
  server: string;
  clientId: string;
  redirectUri: string;
  access: string;
  refresh: string | null;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface Registration {
  server: string;
  clientId: string;
  redirectUri: string;
}

const SESSION = "session";
const REGISTRATION = "registration";

function isSession(value: unknown): value is Session {
  const v = value as Session | undefined;
  return (
    typeof v?.server === "string" &&
    typeof v.clientId === "string" &&
    typeof v.access === "string" &&
    typeof v.expiresAt === "number"
  );
}

export async function loadSession(): Promise<Session | null> {
  const stored = await browserApi.storage.local.get([SESSION]);
  return isSession(stored[SESSION]) ? stored[SESSION] : null;
}

export async function saveSession(session: Session): Promise<void> {
  await browserApi.storage.local.set({ [SESSION]: session });
}

export async function clearSession(): Promise<void> {
  await browserApi.storage.local.remove([SESSION]);
}

/** The client this extension registered at `server` before (one registration per server and redirect address). */
export async function loadRegistration(server: string, redirectUri: string): Promise<Registration | null> {
  const stored = (await browserApi.storage.local.get([REGISTRATION]))[REGISTRATION] as Registration | undefined;
  return stored?.server === server && stored.redirectUri === redirectUri && typeof stored.clientId === "string"
    ? stored
    : null;
}

export async function saveRegistration(registration: Registration): Promise<void> {
  await browserApi.storage.local.set({ [REGISTRATION]: registration });
}
