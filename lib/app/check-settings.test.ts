import { describe, expect, it } from "vitest";
import { checkDomainSettings } from "@/lib/app/check-settings";
import { oidcAllowedDomains, oidcTeamRoleRules } from "@/lib/auth/oidc-settings";
import { youtubeClients } from "@/lib/captions/youtube/clients";
import { EnvError, parseEnv } from "@/lib/env";

describe("the settings their domain reads", () => {
  it("are read by the domain from lib/env's text, and unset ones keep their defaults", () => {
    const settings = parseEnv({
      YOUTUBE_CLIENTS: " visionos, android_vr,WEB,web ",
      OIDC_ALLOWED_DOMAINS: "Example.com, @example.org",
      OIDC_TEAM_ROLES: "acme:admin=verbatim-admins, acme:member=/org/staff",
    });
    expect(() => checkDomainSettings(settings)).not.toThrow();
    expect(youtubeClients(settings)).toEqual(["VISIONOS", "ANDROID_VR", "WEB"]);
    expect(oidcAllowedDomains(settings)).toEqual(["example.com", "example.org"]);
    expect(oidcTeamRoleRules(settings)).toEqual([
      { team: "acme", role: "admin", value: "verbatim-admins" },
      { team: "acme", role: "member", value: "/org/staff" },
    ]);
    const unset = parseEnv({});
    expect(() => checkDomainSettings(unset)).not.toThrow();
    expect([youtubeClients(unset), oidcAllowedDomains(unset), oidcTeamRoleRules(unset)]).toEqual([
      undefined,
      undefined,
      [],
    ]);
  });

  it("stop the start on a bad value, naming each variable as lib/env does", () => {
    const settings = parseEnv({
      YOUTUBE_CLIENTS: "visionos,NOKIA",
      OIDC_ALLOWED_DOMAINS: "example.com, not a domain",
      OIDC_TEAM_ROLES: "acme:chief=x",
    });
    expect(() => checkDomainSettings(settings)).toThrow(EnvError);
    expect(() => checkDomainSettings(settings)).toThrow(
      [
        "Invalid configuration:",
        '  YOUTUBE_CLIENTS: unknown InnerTube client "NOKIA" (known: IOS, WEB, MWEB, ANDROID, ANDROID_VR, VISIONOS, ' +
          "YTMUSIC, YTMUSIC_ANDROID, YTSTUDIO_ANDROID, TV, TV_SIMPLY, TV_EMBEDDED, YTKIDS, WEB_EMBEDDED, WEB_CREATOR)",
        '  OIDC_ALLOWED_DOMAINS: "not a domain" is not a domain',
        '  OIDC_TEAM_ROLES: "chief" is not a role (owner, admin, member, viewer)',
      ].join("\n"),
    );
    // Read where they are used, without the start's check (a script that skipped it), they still name the variable.
    expect(() => youtubeClients(parseEnv({ YOUTUBE_CLIENTS: " , " }))).toThrow(
      /^YOUTUBE_CLIENTS: name at least one InnerTube client$/,
    );
  });
});
