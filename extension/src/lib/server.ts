// The person's Verbatim: the address they type, made the origin the extension talks to and asks permission for.

export type ServerAddress = { ok: true; origin: string; pattern: string } | { ok: false; problem: string };

/** `verbatim.example.org`, `http://127.0.0.1:3000/dashboard` → its origin, or why it cannot be one. */
export function serverAddress(input: string): ServerAddress {
  const text = input.trim();
  if (text === "") return { ok: false, problem: "Type your Verbatim's address." };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return { ok: false, problem: `'${text.slice(0, 80)}' is not an address.` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, problem: "The address must start with https:// (or http:// on this machine)." };
  if (url.username || url.password) return { ok: false, problem: "The address must not carry a name or password." };
  if (url.protocol === "http:" && !isLoopback(url.hostname))
    return {
      ok: false,
      problem: "Use https:// for a server on another machine: http would show your sign-in to the network.",
    };
  // A match pattern names the host; the port is not part of it.
  return { ok: true, origin: url.origin, pattern: `${url.protocol}//${url.hostname}/*` };
}

export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}
