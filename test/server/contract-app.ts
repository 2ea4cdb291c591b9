import os from "node:os";
import path from "node:path";
import { testApps, type TestApp } from "../apps";
import { SERVER_LOGS_DIR } from "../secrets";

// The app test/server/contract.test.ts runs against: `next start` of the one build with billing on, against a
// fake Stripe that test starts (the shared billing app's fake belongs to e2e/billing.spec.ts, which may run at the
// same time), with the YouTube and speech fakes of test/apps.ts, a fake podcast host, a DNS server, and an AUTH_SECRET the test
// knows (the AssemblyAI webhook's token is derived from it). Its port is E2E_PORT + 10, above the ten test/apps.ts
// takes and below the next e2e shard's (20 apart), so its log has a fixed name that global-setup.ts's leak check
// reads too.

export const CONTRACT_AUTH_SECRET = "contract-test-auth-secret-0123456789abcdef";
export const CONTRACT_STRIPE_WEBHOOK_SECRET = "whsec_contract_test";

export function contractAppPort(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.E2E_PORT ?? 3123) + 10;
}

export function contractAppLog(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(SERVER_LOGS_DIR, `app-contract-${contractAppPort(env)}.log`);
}

export function contractApp(fakes: {
  stripeOrigin: string;
  stripeKey: string;
  podcastsOrigin: string;
  /** The DNS server a team's domain is checked with (test/dns-server.ts). */
  dnsServer: string;
}): TestApp {
  const { apps } = testApps();
  const fake = (name: string) => apps.find((app) => app.name === name)!.origin;
  const port = contractAppPort();
  const origin = `http://127.0.0.1:${port}`;
  return {
    name: "billing",
    port,
    origin,
    args: ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: path.join(os.tmpdir(), `verbatim-contract-${port}-${Date.now().toString(36)}`),
      APP_URL: origin,
      AUTH_SECRET: CONTRACT_AUTH_SECRET,
      YOUTUBE_BASE_URL: fake("youtube"),
      ASR_OPENAI_BASE_URL: fake("asr"),
      // The upload is a tone the speech fake "hears"; voice-activity detection would rightly find no speech in it.
      ASR_VAD: "off",
      ITUNES_LOOKUP_URL: `${fakes.podcastsOrigin}/lookup`,
      OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
      RATE_LIMIT_MULTIPLIER: "10",
      STRIPE_SECRET_KEY: fakes.stripeKey,
      STRIPE_API_BASE: fakes.stripeOrigin,
      STRIPE_PRICE_PRO: "verbatim_pro",
      STRIPE_PRICE_ULTRA: "verbatim_ultra",
      STRIPE_WEBHOOK_SECRET: CONTRACT_STRIPE_WEBHOOK_SECRET,
      DNS_SERVERS: fakes.dnsServer,
    },
    ready: "health",
    log: contractAppLog(),
  };
}
