// Alerts (lib/alerts): what matching one new transcript costs with 10, 10,000 and 1,000,000 alerts stored, on real
// PostgreSQL (the percolator: the transcript's own lexemes joined with the alerts' keys, then each candidate asked
// by the search over that one transcript); and the delay from a transcript being ready to its alert's webhook,
// e-mail and Atom feed entry, on the embedded default (the built app, PGlite), median and worst over 50.
// The stored alerts besides the owner's 10: one in ten watching every published transcript, the rest other
// accounts' libraries; half keyed by words the transcript holds (other libraries': never candidates), half by
// words nobody says. Run directly: `npx tsx scripts/bench/alerts.ts`; `npm run bench -- alerts` runs both.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createMigratedTestDatabase } from "../../test/pg";
import { gritTrack, storeTranscript } from "../../test/search";
import { startFakeSmtp } from "../../test/fakes/smtp/server";
import { startFakeYoutube } from "../../test/fakes/youtube/server";
import { FAKE_IDS } from "../../test/fakes/youtube/ids";
import { createApiKey, startApp } from "./server";

const RUNS = 7;
/** The alerts stored at each step; BENCH_ALERTS_SCALES=10,1000 for a quick try. */
const SCALES = (process.env.BENCH_ALERTS_SCALES ?? "10,10000,1000000").split(",").map(Number);
const OTHER_ACCOUNTS = 1_000;
const DELAY_TRANSCRIPTS = 50;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchAlertsMatching(): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    SEARCH_EMBEDDER: "off",
    ALERT_MAX_FREE: "100",
    APP_URL: "http://127.0.0.1:3000",
  });
  const { getDb } = await import("../../lib/db/client");
  const { checkTranscript, wordCandidates } = await import("../../lib/alerts/match-transcript");
  const { createAlert } = await import("../../lib/alerts/manage-alerts");
  const db = await getDb();
  try {
    const owner = (await db.user.create({ data: { email: "owner@bench.test" } })).id;
    const users = await db.user.createManyAndReturn({
      data: Array.from({ length: OTHER_ACCOUNTS }, (_, i) => ({ email: `other-${i}@bench.test` })),
      select: { id: true },
    });
    const queries = ["grit", "passion perseverance", "talent OR effort", '"growth mindset"', "teachers -students"];
    for (let i = 0; i < 10; i++)
      await createAlert(
        { userId: owner, personId: owner },
        {
          query: queries[i % queries.length]!,
          mode: "words",
          closeness: 0.5,
          scope: { kind: "library", team_id: null, follow_ids: [] },
          email: false,
        },
      );
    const { transcript } = await storeTranscript(db, {
      segments: gritTrack(),
      lang: "en",
      title: "Grit",
      userIds: [owner],
    });
    const lexemes = (
      await db.$queryRawUnsafe<{ lexeme: string }[]>(
        `SELECT DISTINCT u.lexeme FROM "TranscriptPassage" p, unnest(p."tsv") u WHERE p."transcriptId" = $1 ORDER BY 1`,
        transcript.id,
      )
    ).map((r) => r.lexeme);
    const check = { transcriptId: transcript.id, accountId: owner, reason: "library" as const };
    let stored = 10;
    const figures: Record<string, number> = { "transcript's distinct lexemes": lexemes.length };
    for (const target of SCALES) {
      if (target > stored) {
        const t0 = performance.now();
        await db.$executeRawUnsafe(
          `INSERT INTO "Alert" ("id", "userId", "name", "query", "scopeKind", "feedToken", "updatedAt")
           SELECT 'f' || g, ($3::text[])[1 + g % array_length($3::text[], 1)], 'filler', 'filler',
                  CASE WHEN g % 10 = 0 THEN 'public' ELSE 'library' END, 'ft' || g, now()
           FROM generate_series($1::int, $2::int) g`,
          stored,
          target - 1,
          users.map((u) => u.id),
        );
        await db.$executeRawUnsafe(
          `INSERT INTO "AlertTerm" ("alertId", "term", "scopeAccount")
           SELECT 'f' || g,
                  CASE WHEN g % 2 = 0 AND g % 10 <> 0 THEN ($4::text[])[1 + g % array_length($4::text[], 1)] ELSE 'zq' || (g % 500000) END,
                  CASE WHEN g % 10 = 0 THEN NULL ELSE ($3::text[])[1 + g % array_length($3::text[], 1)] END
           FROM generate_series($1::int, $2::int) g`,
          stored,
          target - 1,
          users.map((u) => u.id),
          lexemes,
        );
        await db.$executeRawUnsafe(`ANALYZE "Alert"; `);
        await db.$executeRawUnsafe(`ANALYZE "AlertTerm"`);
        console.log(`  stored ${target} alerts in ${Math.round(performance.now() - t0)} ms`);
        stored = target;
      }
      const candidates: number[] = [];
      const checks: number[] = [];
      let matched = 0;
      for (let run = 0; run < RUNS; run++) {
        await db.alertMatch.deleteMany({});
        let t0 = performance.now();
        const found = await wordCandidates(db, check, false);
        candidates.push(performance.now() - t0);
        await db.alertMatch.deleteMany({});
        t0 = performance.now();
        matched = await checkTranscript(check, null);
        checks.push(performance.now() - t0);
        figures[`${target} alerts: candidates`] = found.length;
      }
      figures[`${target} alerts: matched`] = matched;
      figures[`${target} alerts: candidates query p50, ms`] = median(candidates);
      figures[`${target} alerts: whole check p50, ms`] = median(checks);
    }
    const [, middle, last] = SCALES;
    if (middle && last) {
      figures[`whole check ${last} / ${middle} (ratio)`] =
        figures[`${last} alerts: whole check p50, ms`]! / figures[`${middle} alerts: whole check p50, ms`]!;
      figures[`candidates query ${last} / ${middle} (ratio)`] =
        figures[`${last} alerts: candidates query p50, ms`]! / figures[`${middle} alerts: candidates query p50, ms`]!;
    }
    return figures;
  } finally {
    await db.$disconnect();
    delete (globalThis as { verbatimDb?: unknown }).verbatimDb;
    await database.drop();
  }
}

/** Ready → webhook, e-mail and feed entry on the built app with the embedded database. */
export async function benchAlertsDelay(): Promise<Record<string, number>> {
  const youtube = await startFakeYoutube();
  const smtp = await startFakeSmtp(undefined, 0, { acceptMail: true });
  const arrivals = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const alertId = (JSON.parse(body) as { data: { alert_id: string } }).data.alert_id;
      if (!arrivals.has(alertId)) arrivals.set(alertId, performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const app = await startApp(Number(process.env.BENCH_ALERTS_PORT ?? 3460), {
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    YOUTUBE_BASE_URL: youtube.url,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    SMTP_URL: `smtp://verbatim:secret@127.0.0.1:${smtp.port}`,
    RATE_LIMIT_MULTIPLIER: "0",
    SEARCH_EMBEDDER: "off",
  });
  const video = `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`;
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.headers.get("content-type")?.includes("json") ? ((await res.json()) as Record<string, unknown>) : null;
  };
  try {
    // A word the video says, from its transcript.
    const first = await call(await createApiKey(app.baseUrl), "POST", "/v1/transcript", { url: video, format: "json" });
    const words =
      (first!.segments as { text: string }[])
        .map((s) => s.text)
        .join(" ")
        .toLowerCase()
        .match(/\p{L}{7,}/gu) ?? [];
    const word = words[Math.floor(words.length / 2)]!;
    const webhook: number[] = [];
    const mail: number[] = [];
    const feed: number[] = [];
    for (let i = 0; i < DELAY_TRANSCRIPTS; i++) {
      const email = `alerts-${i}-${Date.now()}@bench.test`;
      const key = await createApiKey(app.baseUrl, email);
      await call(key, "POST", "/v1/me/webhooks", { url: hook, event_types: ["alert.matched"] });
      const alert = (await call(key, "POST", "/v1/alerts", { query: word, scope: { kind: "library" }, email: true }))!;
      const mailsBefore = smtp.mails.length;
      await call(key, "POST", "/v1/transcript", { url: video });
      const ready = performance.now();
      let mailed: number | null = null;
      let inFeed: number | null = null;
      const deadline = ready + 90_000;
      while (
        (mailed === null || inFeed === null || !arrivals.has(alert.id as string)) &&
        performance.now() < deadline
      ) {
        if (mailed === null && smtp.mails.slice(mailsBefore).some((m) => m.to.some((to) => to.includes(email))))
          mailed = performance.now();
        if (inFeed === null) {
          const atom = await (await fetch(alert.feed_url as string)).text();
          if (atom.includes("<entry>")) inFeed = performance.now();
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      webhook.push((arrivals.get(alert.id as string) ?? Number.NaN) - ready);
      mail.push((mailed ?? Number.NaN) - ready);
      feed.push((inFeed ?? Number.NaN) - ready);
    }
    const worst = (values: number[]) => Math.max(...values);
    return {
      [`ready → webhook p50, ms (${DELAY_TRANSCRIPTS} transcripts, embedded)`]: median(webhook),
      "ready → webhook worst, ms": worst(webhook),
      "ready → e-mail p50, ms": median(mail),
      "ready → e-mail worst, ms": worst(mail),
      "ready → feed entry p50, ms": median(feed),
      "ready → feed entry worst, ms": worst(feed),
    };
  } finally {
    await app.stop();
    await youtube.close();
    await smtp.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

export async function benchAlerts(): Promise<Record<string, number>> {
  return { ...(await benchAlertsMatching()), ...(await benchAlertsDelay()) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const only = process.argv[2];
  const figures =
    only === "matching"
      ? await benchAlertsMatching()
      : only === "delay"
        ? await benchAlertsDelay()
        : await benchAlerts();
  for (const [label, value] of Object.entries(figures))
    console.log(`${label.padEnd(52)} ${Number.isInteger(value) ? value : value.toFixed(value < 10 ? 3 : 1)}`);
}
