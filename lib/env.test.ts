import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { devLoginWarning, EnvError, isLoopbackUrl, parseEnv, proxyHopsWarning, SETTING_NAMES } from "@/lib/env";

describe("parseEnv", () => {
  it("derives APP_URL from PORT when APP_URL is unset, and keeps an APP_URL that is set", () => {
    expect(parseEnv({ PORT: "3490" }).APP_URL).toBe("http://localhost:3490");
    expect(parseEnv({ PORT: "3490", APP_URL: "" }).APP_URL).toBe("http://localhost:3490");
    expect(parseEnv({ PORT: "3490", APP_URL: "https://verbatim.example" }).APP_URL).toBe("https://verbatim.example");
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
  });

  it("runs on embedded defaults with no settings at all", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      embedded: true,
      devLogin: true,
      APP_URL: "http://localhost:3000",
      DATA_DIR: "./data",
      TRANSCRIPT_CACHE_HOURS: 168,
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("names the variable of a bad value", () => {
    expect(() => parseEnv({ APP_URL: "not a url" })).toThrow(/APP_URL/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => parseEnv({ AUTH_DEV_LOGIN: "maybe" })).toThrow(/AUTH_DEV_LOGIN/);
    expect(() => parseEnv({ TRANSCRIPT_CACHE_HOURS: "-3" })).toThrow(/TRANSCRIPT_CACHE_HOURS/);
    expect(() => parseEnv({ APP_URL: "x" })).toThrow(EnvError);
  });

  it("takes a person's e-mail or a team's slug as the watch folder's account, lower-cased", () => {
    expect(parseEnv({ WATCH_DIR: "/srv/in", WATCH_ACCOUNT: " Ana@Example.com " }).WATCH_ACCOUNT).toBe(
      "ana@example.com",
    );
    expect(parseEnv({ WATCH_DIR: "/srv/in", WATCH_ACCOUNT: "Newsroom" }).WATCH_ACCOUNT).toBe("newsroom");
    expect(() => parseEnv({ WATCH_DIR: "/srv/in", WATCH_ACCOUNT: "news room" })).toThrow(
      /WATCH_ACCOUNT: must be a person's e-mail or a team's slug/,
    );
    expect(() => parseEnv({ WATCH_DIR: "/srv/in" })).toThrow(/WATCH_ACCOUNT: required when WATCH_DIR is set/);
  });

  it("with a real database: needs AUTH_SECRET, and the development login is off unless asked for", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://db/verbatim" })).toThrow(/AUTH_SECRET/);
    const prod = parseEnv({ DATABASE_URL: "postgres://db/verbatim", AUTH_SECRET: "s".repeat(32) });
    expect(prod).toMatchObject({ embedded: false, devLogin: false });
    expect(
      parseEnv({ DATABASE_URL: "postgres://db/v", AUTH_SECRET: "s".repeat(32), AUTH_DEV_LOGIN: "true" }).devLogin,
    ).toBe(true);
    expect(parseEnv({ AUTH_DEV_LOGIN: "off" }).devLogin).toBe(false);
  });

  it("turns the development login on by default only when embedded on a loopback APP_URL", () => {
    for (const url of [
      "http://localhost:3000",
      "http://127.0.0.1:4100",
      "http://127.3.4.5",
      "http://[::1]:3000",
      "http://LOCALHOST",
    ]) {
      const settings = parseEnv({ APP_URL: url });
      expect(settings.devLogin, url).toBe(true);
      expect(devLoginWarning(settings), url).toBeNull();
    }
    for (const url of [
      "https://verbatim.example",
      "http://192.168.1.20:3000",
      "http://10.0.0.1",
      "http://[::2]",
      "http://localhost.evil.example",
      "http://0.0.0.0:3000",
      "http://128.0.0.1",
    ]) {
      expect(parseEnv({ APP_URL: url }).devLogin, url).toBe(false);
    }
  });

  it("allows the development login elsewhere only with AUTH_DEV_LOGIN=true, and then warns at start", () => {
    const exposed = parseEnv({ APP_URL: "https://verbatim.example", AUTH_DEV_LOGIN: "true" });
    expect(exposed.devLogin).toBe(true);
    expect(devLoginWarning(exposed)).toMatch(/development login is on.*https:\/\/verbatim\.example.*anyone/);
    const database = parseEnv({
      APP_URL: "http://127.0.0.1:3000",
      DATABASE_URL: "postgres://db/v",
      AUTH_SECRET: "s".repeat(32),
      AUTH_DEV_LOGIN: "true",
    });
    expect(devLoginWarning(database)).toMatch(/WARNING/);
    expect(devLoginWarning(parseEnv({ APP_URL: "https://verbatim.example" }))).toBeNull();
    expect(parseEnv({ APP_URL: "http://localhost:3000", AUTH_DEV_LOGIN: "false" }).devLogin).toBe(false);
    expect(isLoopbackUrl("http://[::ffff:127.0.0.1]:3000")).toBe(true);
  });

  it("rate-limit settings: proxy hops (default 0, warned about on a public APP_URL), Redis URL, multiplier", () => {
    expect(parseEnv({})).toMatchObject({ TRUSTED_PROXY_HOPS: 0, RATE_LIMIT_MULTIPLIER: 1 });
    expect(
      parseEnv({ TRUSTED_PROXY_HOPS: "2", REDIS_URL: "redis://127.0.0.1:6379", RATE_LIMIT_MULTIPLIER: "0" }),
    ).toMatchObject({
      TRUSTED_PROXY_HOPS: 2,
      REDIS_URL: "redis://127.0.0.1:6379",
      RATE_LIMIT_MULTIPLIER: 0,
    });
    expect(() => parseEnv({ TRUSTED_PROXY_HOPS: "-1" })).toThrow(/TRUSTED_PROXY_HOPS/);
    expect(() => parseEnv({ REDIS_URL: "http://x" })).toThrow(/REDIS_URL/);
    expect(proxyHopsWarning(parseEnv({ APP_URL: "https://verbatim.example" }))).toMatch(/TRUSTED_PROXY_HOPS/);
    expect(proxyHopsWarning(parseEnv({ APP_URL: "https://verbatim.example", TRUSTED_PROXY_HOPS: "1" }))).toBeNull();
    expect(proxyHopsWarning(parseEnv({}))).toBeNull();
  });

  it("treats empty values as unset and parses lists", () => {
    expect(parseEnv({ DATABASE_URL: "", OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1, Localhost ," })).toMatchObject({
      embedded: true,
      OUTBOUND_ALLOW_PRIVATE_HOSTS: ["127.0.0.1", "localhost"],
    });
  });

  it("reads the OpenID Connect settings, and names a bad one (their role rules and domains: lib/app/check-settings)", () => {
    const oidc = parseEnv({
      OIDC_ISSUER: "https://id.example.com/realms/acme",
      OIDC_CLIENT_ID: "verbatim",
      OIDC_ALLOWED_DOMAINS: "Example.com, @example.org",
      OIDC_SCOPES: "openid email groups",
      OIDC_TEAM_ROLES: "acme:admin=verbatim-admins",
      AUTH_EMAIL_SIGNIN: "off",
    });
    expect(oidc).toMatchObject({
      OIDC_ALLOWED_DOMAINS: "Example.com, @example.org",
      OIDC_SCOPES: ["openid", "email", "groups"],
      OIDC_ROLES_CLAIM: "groups",
      OIDC_NAME: "Single sign-on",
      OIDC_TEAM_ROLES: "acme:admin=verbatim-admins",
      AUTH_EMAIL_SIGNIN: false,
    });
    expect(parseEnv({}).OIDC_SCOPES).toEqual(["openid", "email", "profile"]);
    expect(() => parseEnv({ OIDC_ISSUER: "https://id.example.com" })).toThrow(/OIDC_CLIENT_ID: required/);
    expect(() => parseEnv({ OIDC_SCOPES: "email profile" })).toThrow(/OIDC_SCOPES: must include openid/);
  });

  it("documents every setting in docs/configuration.md and .env.example", () => {
    const readme = readFileSync("docs/configuration.md", "utf8");
    const example = readFileSync(".env.example", "utf8");
    for (const name of SETTING_NAMES.filter((n) => n !== "NODE_ENV")) {
      expect(readme, name).toContain(`\`${name}\``);
      expect(example, name).toMatch(new RegExp(`^${name}=`, "m"));
    }
  });
});
