import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { startFakeSmtp, type FakeSmtp } from "@/test/fakes/smtp/server";

// An invitation through a mail server (SMTP_URL), as sign-in links go: nodemailer delivers it to an SMTP server
// on this machine, the link in the mail is the one that works; a mail server that refuses the mail withdraws the
// invitation (a 502), so no pending link exists that nobody received.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let smtp: FakeSmtp;
let refusing: FakeSmtp;
let routes: {
  teams: typeof import("@/app/v1/teams/route").POST;
  invite: typeof import("@/app/v1/teams/[team_id]/invitations/route").POST;
  invitations: typeof import("@/app/v1/teams/[team_id]/invitations/route").GET;
  accept: typeof import("@/app/v1/invitations/accept/route").POST;
};

beforeAll(async () => {
  smtp = await startFakeSmtp(undefined, 0, { acceptMail: true });
  refusing = await startFakeSmtp();
  Object.assign(process.env, {
    SMTP_URL: `smtp://verbatim:secret@127.0.0.1:${smtp.port}`,
    EMAIL_FROM: "Verbatim <teams@verbatim.test>",
    APP_URL: "https://verbatim.test",
    RATE_LIMIT_MULTIPLIER: "0",
  });
  ctx = await useTestDatabase();
  routes = {
    teams: (await import("@/app/v1/teams/route")).POST,
    invite: (await import("@/app/v1/teams/[team_id]/invitations/route")).POST,
    invitations: (await import("@/app/v1/teams/[team_id]/invitations/route")).GET,
    accept: (await import("@/app/v1/invitations/accept/route")).POST,
  };
});

afterAll(async () => {
  await ctx?.teardown();
  await smtp?.close();
  await refusing?.close();
});

/** The text of a mail's body, quoted-printable undone. */
function bodyText(data: string): string {
  const body = data.slice(data.indexOf("\r\n\r\n") + 4);
  return /content-transfer-encoding: quoted-printable/i.test(data)
    ? Buffer.from(
        body
          .replace(/=\r\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8")
    : body;
}

describe("an invitation by mail", () => {
  it("is delivered by SMTP with a link that lets the invited person join", async () => {
    const owner = await createCaller(ctx.db);
    const invited = await createCaller(ctx.db);
    const invitedUser = await ctx.db.user.update({
      where: { id: invited.userId },
      data: { emailVerified: new Date() },
    });
    const created = await callRoute(routes.teams, "/v1/teams", {
      headers: owner.headers,
      body: { name: "Nachtradio" },
    });
    const team = (created.json as { id: string }).id;
    const sent = await callRoute(routes.invite, "/v1/teams/x/invitations", {
      headers: owner.headers,
      params: { team_id: team },
      body: { email: invitedUser.email, role: "admin" },
    });
    expect(sent.status).toBe(201);
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail.to).toEqual([invitedUser.email]);
    expect(mail.data).toMatch(/^From: Verbatim <teams@verbatim\.test>/m);
    expect(mail.data).toMatch(/^Subject: You are invited to Nachtradio on Verbatim/m);
    const text = bodyText(mail.data);
    expect(text).toContain("as admin");
    const link = /https:\/\/verbatim\.test\/invite\/([A-Za-z0-9_-]{43})/.exec(text);
    expect(link, text).not.toBeNull();
    const accepted = await callRoute(routes.accept, "/v1/invitations/accept", {
      headers: invited.headers,
      body: { token: link![1] },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ team: { id: team, role: "admin" } });
  });

  it("is withdrawn when the mail server refuses it", async () => {
    const owner = await createCaller(ctx.db);
    const created = await callRoute(routes.teams, "/v1/teams", { headers: owner.headers, body: { name: "Refused" } });
    const team = (created.json as { id: string }).id;
    const { env } = await import("@/lib/env");
    const settings = env() as { SMTP_URL?: string };
    const working = settings.SMTP_URL;
    settings.SMTP_URL = `smtp://verbatim:secret@127.0.0.1:${refusing.port}`;
    try {
      const sent = await callRoute(routes.invite, "/v1/teams/x/invitations", {
        headers: owner.headers,
        params: { team_id: team },
        body: { email: "someone@example.test" },
      });
      expect(sent.status).toBe(502);
      expect(sent.json).toMatchObject({ code: "upstream_failed" });
    } finally {
      settings.SMTP_URL = working;
    }
    expect(refusing.commands.some((line) => line.startsWith("MAIL FROM"))).toBe(true);
    const pending = await callRoute(routes.invitations, "/v1/teams/x/invitations", {
      headers: owner.headers,
      params: { team_id: team },
    });
    expect(pending.json).toEqual({ invitations: [] });
  });
});
