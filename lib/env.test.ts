import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { EnvError, parseEnv, SETTING_NAMES } from "@/lib/env";

describe("parseEnv", () => {
  it("runs on embedded defaults with no settings at all", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ embedded: true, devLogin: true, APP_URL: "http://localhost:3000", DATA_DIR: "./data", TRANSCRIPT_CACHE_HOURS: 168 });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("names the variable of a bad value", () => {
    expect(() => parseEnv({ APP_URL: "not a url" })).toThrow(/APP_URL/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => parseEnv({ AUTH_DEV_LOGIN: "maybe" })).toThrow(/AUTH_DEV_LOGIN/);
    expect(() => parseEnv({ TRANSCRIPT_CACHE_HOURS: "-3" })).toThrow(/TRANSCRIPT_CACHE_HOURS/);
    expect(() => parseEnv({ APP_URL: "x" })).toThrow(EnvError);
  });

  it("with a real database: needs AUTH_SECRET, and the development login is off unless asked for", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://db/verbatim" })).toThrow(/AUTH_SECRET/);
    const prod = parseEnv({ DATABASE_URL: "postgres://db/verbatim", AUTH_SECRET: "s".repeat(32) });
    expect(prod).toMatchObject({ embedded: false, devLogin: false });
    expect(parseEnv({ DATABASE_URL: "postgres://db/v", AUTH_SECRET: "s".repeat(32), AUTH_DEV_LOGIN: "true" }).devLogin).toBe(true);
    expect(parseEnv({ AUTH_DEV_LOGIN: "off" }).devLogin).toBe(false);
  });

  it("treats empty values as unset and parses lists", () => {
    expect(parseEnv({ DATABASE_URL: "", OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1, Localhost ," })).toMatchObject({
      embedded: true,
      OUTBOUND_ALLOW_PRIVATE_HOSTS: ["127.0.0.1", "localhost"],
    });
  });

  it("documents every setting in README.md and .env.example", () => {
    const readme = readFileSync("README.md", "utf8");
    const example = readFileSync(".env.example", "utf8");
    for (const name of SETTING_NAMES.filter((n) => n !== "NODE_ENV")) {
      expect(readme, name).toContain(`\`${name}\``);
      expect(example, name).toMatch(new RegExp(`^${name}=`, "m"));
    }
  });
});
