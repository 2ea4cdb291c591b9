import type { Env } from "@/lib/env";
import { fromThisMachine } from "@/lib/http/client-address";

/**
 * Whether the development login refuses this request. On by default (the embedded database at a loopback
 * APP_URL, AUTH_DEV_LOGIN unset), it is for a person at this machine only: a connection from another machine,
 * or one through a proxy or tunnel on this one (whose connection is loopback, but whose client is anywhere),
 * is refused, and the sign-in page does not offer it. AUTH_DEV_LOGIN=true is the operator saying that whoever
 * reaches the server may use it (a warning at start says so). Where the request guard did not run, nothing
 * reliable is known and the login is allowed.
 */
export function devLoginRefused(settings: Pick<Env, "AUTH_DEV_LOGIN">, headers: Pick<Headers, "get">): boolean {
  return settings.AUTH_DEV_LOGIN === undefined && fromThisMachine(headers) === false;
}
