// Whether jobs go to Inngest, read from the INNGEST_* settings (the SDK reads the same variables itself).
// Inngest is on when an event key is set (Inngest Cloud or a self-hosted server) or INNGEST_DEV is set
// (a local Inngest dev server); otherwise the local runner runs jobs.
// This module loads nothing from the SDK, so the local-runner path never pays for it.
import { env } from "@/lib/env";

export interface InngestSettings {
  configured: boolean;
  eventKey?: string;
  signingKey?: string;
  /** INNGEST_BASE_URL: a self-hosted Inngest server. */
  baseUrl?: string;
  /** INNGEST_DEV: "1"/"true" for the dev server at its default address, or its URL. */
  dev?: string;
}

const OFF = new Set(["", "0", "false", "no", "off"]);

export function parseInngestSettings(vars: Record<string, string | undefined>): InngestSettings {
  const value = (name: string) => {
    const v = vars[name]?.trim();
    return v ? v : undefined;
  };
  const eventKey = value("INNGEST_EVENT_KEY");
  const dev = value("INNGEST_DEV");
  const devOn = dev !== undefined && !OFF.has(dev.toLowerCase());
  return {
    configured: eventKey !== undefined || devOn,
    eventKey,
    signingKey: value("INNGEST_SIGNING_KEY"),
    baseUrl: value("INNGEST_BASE_URL"),
    dev: devOn ? dev : undefined,
  };
}

let cached: InngestSettings | undefined;

export function inngestSettings(): InngestSettings {
  const settings = env();
  cached ??= parseInngestSettings({
    INNGEST_EVENT_KEY: settings.INNGEST_EVENT_KEY,
    INNGEST_SIGNING_KEY: settings.INNGEST_SIGNING_KEY,
    INNGEST_BASE_URL: settings.INNGEST_BASE_URL,
    INNGEST_DEV: settings.INNGEST_DEV,
  });
  return cached;
}

/** True when jobs are dispatched to Inngest instead of the local runner. */
export function inngestConfigured(): boolean {
  return inngestSettings().configured;
}
