/**
 * A local fake of Stripe's REST API (v1) for the billing tests: node:http on 127.0.0.1, port 0. The real
 * `stripe` SDK talks to it through `host`/`port`/`protocol` (see lib/billing/stripe.ts and STRIPE_API_BASE).
 * See ./README.md for what it covers.
 *
 *   const stripe = await startFakeStripe();
 *   const pro = stripe.seedPrice({ product: { name: "Pro" }, unit_amount: 900, currency: "usd", recurring: { interval: "month" }, lookup_key: "pro" });
 *   process.env.STRIPE_API_BASE = stripe.origin; process.env.STRIPE_SECRET_KEY = stripe.apiKey;
 *   ...
 *   stripe.count("GET", "/v1/prices");   // requests seen
 *   await stripe.close();
 *
 * Behaviour that matters to callers:
 * - `Authorization: Bearer <apiKey>` (or HTTP Basic with the key as user) on every /v1 request, else 401.
 * - Bodies and query strings are Stripe's form encoding (`a[b][c]`, `a[0][b]`, `expand[]`); unknown params,
 *   bad types, bad enum values, missing required params: 400 `invalid_request_error` with `param`.
 * - A missing object in the path: 404 `resource_missing`; named in a param: 400 `resource_missing`.
 * - `Idempotency-Key` on POST: the same key with the same body replays the first answer (header
 *   `Idempotent-Replayed: true`); with another body it is a 400 `idempotency_error`.
 * - `Stripe-Version` picks the shape (billing periods on the subscription only before 2025-03-31).
 * - Every change emits the events Stripe would (`events`, GET /v1/events); with `webhook` set they can be
 *   delivered, signed with the SDK's test header helper, to the app's webhook route.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import Stripe from "stripe";
import { parseForm, StripeApiError, type JsonObject } from "./params";
import { checkRouteParams, matchRoute } from "./routes";
import {
  FakeStripeState,
  randomId,
  type CheckoutSessionRec,
  type InvoiceRec,
  type Kind,
  type SubscriptionRec,
} from "./state";

export type { JsonObject } from "./params";

export interface FakeStripeOptions {
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** The secret key requests must carry. Default `sk_test_fake_verbatim`. */
  apiKey?: string;
  /** The account's default API version (for requests without Stripe-Version, and for events). Default: the SDK's. */
  apiVersion?: string;
  /** Where events go when delivered (hosted checkout page, `deliver()`, or every change with `auto`). */
  webhook?: { url: string; secret: string; auto?: boolean };
  /** Unix seconds. Default: the real clock. */
  now?: () => number;
  /** Search lags behind writes at Stripe (about a minute); set this to test for it. Default 0. */
  searchDelaySeconds?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Parsed query (GET, DELETE) or form body (POST). */
  params: JsonObject;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  status: number;
  at: number;
}

export interface Fault {
  method?: string;
  /** Exact path or a pattern (e.g. /^\/v1\/prices/). */
  path?: string | RegExp;
  /** HTTP status to answer (default 500 api_error). */
  status?: number;
  /** How many requests it applies to (default 1; Infinity for all). */
  times?: number;
  error?: { type?: string; message?: string; code?: string };
}

export interface Stall {
  method?: string;
  path?: string | RegExp;
  /** Hold matching requests this long (default: until release() or close()). */
  ms?: number;
}

export interface DeliveryResult {
  event: JsonObject;
  status: number;
  body: string;
}

type SeedPrice = {
  product?: string | { name: string; id?: string; metadata?: Record<string, string> };
  unit_amount: number;
  currency?: string;
  recurring?: { interval: "day" | "week" | "month" | "year"; interval_count?: number } | null;
  lookup_key?: string;
  nickname?: string;
  active?: boolean;
  metadata?: Record<string, string>;
};

const DEFAULT_KEY = "sk_test_fake_verbatim";

const matches = (rule: { method?: string; path?: string | RegExp }, method: string, path: string) =>
  (!rule.method || rule.method.toUpperCase() === method) &&
  (!rule.path || (typeof rule.path === "string" ? rule.path === path : rule.path.test(path)));

/** `Stripe-Signature` header for a payload, from the SDK's own test helper. */
export function signEvent(
  payload: string | object,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): { body: string; header: string } {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload, null, 2);
  return { body, header: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }) };
}

/** POSTs one event to a webhook URL the way Stripe does (JSON, `Stripe-Signature`). */
export async function sendEvent(
  url: string,
  event: object,
  secret: string,
  timestamp?: number,
): Promise<{ status: number; body: string }> {
  const { body, header } = signEvent(event, secret, timestamp);
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json; charset=utf-8",
      "stripe-signature": header,
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    },
    body,
  });
  return { status: response.status, body: await response.text() };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

export async function startFakeStripe(options: FakeStripeOptions = {}) {
  const apiKey = options.apiKey ?? DEFAULT_KEY;
  const apiVersion = options.apiVersion ?? Stripe.API_VERSION;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const requests: RecordedRequest[] = [];
  const faults: (Fault & { left: number })[] = [];
  const stalls: (Stall & { waiting: Set<() => void> })[] = [];
  const idempotency = new Map<
    string,
    { fingerprint: string; path: string; status: number; body: string } | "in_progress"
  >();
  const sockets = new Set<Socket>();
  const deliveries: DeliveryResult[] = [];
  let webhook = options.webhook;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks).toString("utf8")).catch((error: unknown) => {
        if (!res.headersSent)
          send(res, 500, { error: { type: "api_error", message: `fake stripe: ${String(error)}` } });
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const state = new FakeStripeState({ origin, apiVersion, now, searchDelaySeconds: options.searchDelaySeconds ?? 0 });

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = typeof body === "string" ? body : JSON.stringify(body, null, 2);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  }

  function errorBody(error: StripeApiError, requestId: string) {
    return {
      error: {
        ...(error.code
          ? { code: error.code, doc_url: `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, "-")}` }
          : {}),
        message: error.message,
        ...(error.param ? { param: error.param } : {}),
        request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}?t=${now()}`,
        type: error.type,
        ...error.extra,
      },
    };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, rawBody: string) {
    const url = new URL(req.url ?? "/", origin);
    const method = (req.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/\/{2,}/g, "/");
    if (!path.startsWith("/v1/")) return hostedPage(method, path, rawBody, res);

    const requestId = randomId("req_", 14);
    const version = (req.headers["stripe-version"] as string | undefined) ?? apiVersion;
    const idempotencyKey = method === "POST" ? (req.headers["idempotency-key"] as string | undefined) : undefined;
    const raw = parseForm(method === "POST" ? rawBody : url.search.slice(1));
    const record: RecordedRequest = {
      method,
      path,
      params: raw as JsonObject,
      idempotencyKey,
      stripeVersion: req.headers["stripe-version"] as string | undefined,
      status: 0,
      at: Date.now(),
    };
    requests.push(record);
    const baseHeaders: Record<string, string> = {
      "request-id": requestId,
      "stripe-version": version,
      ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
    };
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      send(res, status, body, { ...baseHeaders, ...headers });
    };

    const stall = stalls.find((s) => matches(s, method, path));
    if (stall) {
      await new Promise<void>((resolve) => {
        stall.waiting.add(resolve);
        if (stall.ms !== undefined) setTimeout(resolve, stall.ms);
      });
      stall.waiting.clear();
      if (res.destroyed) return;
    }

    const auth = req.headers.authorization;
    const key = auth?.startsWith("Bearer ")
      ? auth.slice(7).trim()
      : auth?.startsWith("Basic ")
        ? Buffer.from(auth.slice(6), "base64").toString().split(":")[0]
        : undefined;
    if (!key) {
      return reply(401, {
        error: {
          message:
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
          type: "invalid_request_error",
        },
      });
    }
    if (key !== apiKey) {
      return reply(401, {
        error: {
          code: "api_key_invalid",
          doc_url: "https://stripe.com/docs/error-codes/api-key-invalid",
          message: `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
          type: "invalid_request_error",
        },
      });
    }

    const fault = faults.find((f) => f.left > 0 && matches(f, method, path));
    if (fault) {
      fault.left -= 1;
      const status = fault.status ?? 500;
      return reply(status, {
        error: {
          message: fault.error?.message ?? (status >= 500 ? "An unknown error occurred" : "Injected error"),
          type:
            fault.error?.type ??
            (status >= 500 ? "api_error" : status === 429 ? "rate_limit_error" : "invalid_request_error"),
          ...(fault.error?.code ? { code: fault.error.code } : {}),
        },
      });
    }

    const found = matchRoute(method, path);
    if (!found) {
      return reply(404, {
        error: {
          message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
          type: "invalid_request_error",
        },
      });
    }

    const scope = idempotencyKey ? `${apiKey}:${idempotencyKey}` : undefined;
    const fingerprint = rawBody;
    if (scope) {
      const seen = idempotency.get(scope);
      if (seen === "in_progress") {
        return reply(409, {
          error: {
            message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${idempotencyKey}. Please try again later.`,
            type: "idempotency_error",
          },
        });
      }
      if (seen) {
        if (seen.path !== `${method} ${path}`) {
          return reply(400, {
            error: {
              message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${seen.path.split(" ")[1]}' vs '${path}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              type: "idempotency_error",
            },
          });
        }
        if (seen.fingerprint !== fingerprint) {
          return reply(400, {
            error: {
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              type: "idempotency_error",
            },
          });
        }
        record.status = seen.status;
        return send(res, seen.status, seen.body, {
          ...baseHeaders,
          "idempotent-replayed": "true",
          "original-request": requestId,
        });
      }
    }

    let params: JsonObject;
    try {
      params = checkRouteParams(found.route, raw);
    } catch (error) {
      // Parameter errors are not saved against the idempotency key (Stripe only saves requests that ran).
      if (error instanceof StripeApiError) return reply(error.status, errorBody(error, requestId));
      throw error;
    }
    if (scope) idempotency.set(scope, "in_progress");
    let status = 200;
    let body: unknown;
    try {
      const render = { version };
      const result = found.route.run({ state, params, ids: found.ids, render });
      const json = "json" in result ? result.json : state.render(result.kind, result.rec, render);
      body = state.expand(json, (params.expand as string[] | undefined) ?? [], render);
    } catch (error) {
      if (!(error instanceof StripeApiError)) {
        if (scope) idempotency.delete(scope);
        throw error;
      }
      status = error.status;
      body = errorBody(error, requestId);
    }
    const text = JSON.stringify(body, null, 2);
    if (scope) idempotency.set(scope, { fingerprint, path: `${method} ${path}`, status, body: text });
    reply(status, text);
    const events = state.drainEvents();
    if (webhook?.auto && events.length > 0) void deliver(events);
  }

  /** The hosted Checkout page (pay or cancel) and the customer portal, for browser tests. */
  async function hostedPage(method: string, path: string, rawBody: string, res: http.ServerResponse) {
    const html = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html><head><meta charset="utf-8"><title>Fake Stripe</title></head><body>${body}</body></html>`,
      );
    };
    const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const checkout = /^\/c\/pay\/([^/]+)$/.exec(path);
    if (checkout) {
      const session = state.find("checkout.session", checkout[1]);
      if (!session)
        return html(404, "<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>");
      if (method === "POST") {
        if (session.status !== "open") return html(409, `<h1>This Checkout Session is ${esc(session.status)}</h1>`);
        const form = new URLSearchParams(rawBody);
        const done = state.completeCheckout(session.id, {
          promotionCode: form.get("promotion_code") || undefined,
          email: form.get("email") || undefined,
        });
        state.drainEvents();
        if (webhook) await deliver(done.events);
        const target = (session.success_url ?? `${origin}/c/done`).replace("{CHECKOUT_SESSION_ID}", session.id);
        res.writeHead(303, { location: target });
        return res.end();
      }
      const total = (session.amount_total / 100).toFixed(2);
      return html(
        200,
        `<h1>Fake Stripe Checkout</h1>
<p data-testid="amount">${esc(session.currency?.toUpperCase() ?? "")} ${total}</p>
<form method="post">
${session.customer ? "" : `<label>Email <input name="email" value="${esc(session.customer_email ?? "")}"></label>`}
${session.allow_promotion_codes ? `<label>Promotion code <input name="promotion_code"></label>` : ""}
<button type="submit">Pay</button>
</form>
${session.cancel_url ? `<a href="${esc(session.cancel_url)}">Cancel</a>` : ""}`,
      );
    }
    const portal = /^\/p\/session\/([^/]+)$/.exec(path);
    if (portal) {
      const session = state.find("billing_portal.session", portal[1]);
      if (!session) return html(404, "<h1>This link has expired</h1>");
      const subs = state.all("subscription").filter((s) => s.customer === session.customer && s.status !== "canceled");
      const list = subs
        .map(
          (s) => `<li>${esc(s.id)}: ${esc(s.status)}${s.cancel_at_period_end ? " (cancels at period end)" : ""}</li>`,
        )
        .join("");
      return html(
        200,
        `<h1>Fake Stripe customer portal</h1><ul>${list}</ul>${session.return_url ? `<a href="${esc(session.return_url)}">Return</a>` : ""}`,
      );
    }
    return html(404, "<h1>Not found</h1>");
  }

  /** Sends events to the webhook endpoint in order, each signed; returns each answer. */
  async function deliver(
    events: JsonObject[],
    target: { url: string; secret: string } | undefined = webhook,
  ): Promise<DeliveryResult[]> {
    if (!target) throw new Error("fake stripe: no webhook endpoint (pass `webhook` to startFakeStripe or to deliver)");
    const results: DeliveryResult[] = [];
    for (const event of events) {
      let result: DeliveryResult;
      try {
        const sent = await sendEvent(target.url, event, target.secret);
        result = { event, ...sent };
      } catch (error) {
        result = { event, status: 0, body: String(error) };
      }
      results.push(result);
      deliveries.push(result);
    }
    return results;
  }

  const render = (kind: Kind, rec: unknown) => state.render(kind, rec, { version: apiVersion }) as JsonObject;
  const take = () => state.drainEvents();

  return {
    origin,
    port,
    host: "127.0.0.1",
    protocol: "http" as const,
    apiKey,
    apiVersion,
    state,
    /** Every /v1 request, in order. */
    requests,
    /** Every webhook delivery made by the fake. */
    deliveries,
    /** Every event emitted, in order (also at GET /v1/events). */
    get events() {
      return state.events;
    },
    /** Requests seen for a method and path (exact string or pattern). */
    count(method?: string, path?: string | RegExp): number {
      return requests.filter((r) => matches({ method, path }, r.method, r.path)).length;
    },
    resetRequests() {
      requests.length = 0;
    },

    // Seeding (straight into the account: no requests recorded, events emitted but not delivered) ---------
    seedProduct(params: {
      name: string;
      id?: string;
      active?: boolean;
      metadata?: Record<string, string>;
    }): JsonObject {
      const created = state.createProduct(params);
      take();
      return render("product", created.object);
    },
    seedPrice(params: SeedPrice): JsonObject {
      const product =
        typeof params.product === "string"
          ? params.product
          : state.createProduct(params.product ?? { name: "Product" }).object.id;
      const created = state.createPrice({
        product,
        unit_amount: params.unit_amount,
        currency: params.currency ?? "usd",
        ...(params.recurring === null
          ? {}
          : {
              recurring: {
                interval: params.recurring?.interval ?? "month",
                interval_count: params.recurring?.interval_count ?? 1,
              },
            }),
        ...(params.lookup_key ? { lookup_key: params.lookup_key } : {}),
        ...(params.nickname ? { nickname: params.nickname } : {}),
        ...(params.active === false ? { active: false } : {}),
        ...(params.metadata ? { metadata: params.metadata } : {}),
      });
      take();
      return render("price", created.object);
    },
    seedCoupon(params: {
      id?: string;
      name?: string;
      percent_off?: number;
      amount_off?: number;
      currency?: string;
      duration?: "once" | "repeating" | "forever";
      duration_in_months?: number;
      applies_to?: { products: string[] };
      redeem_by?: number;
      max_redemptions?: number;
      metadata?: Record<string, string>;
    }): JsonObject {
      const created = state.createCoupon(params as JsonObject);
      take();
      return render("coupon", created.object);
    },
    seedPromotionCode(params: {
      coupon: string;
      code?: string;
      active?: boolean;
      expires_at?: number;
      max_redemptions?: number;
      customer?: string;
      metadata?: Record<string, string>;
    }): JsonObject {
      const { coupon, ...rest } = params;
      const created = state.createPromotionCode({ ...(rest as JsonObject), promotion: { type: "coupon", coupon } });
      take();
      return render("promotion_code", created.object);
    },
    seedCustomer(params: { email?: string; name?: string; metadata?: Record<string, string> } = {}): JsonObject {
      const created = state.createCustomer(params);
      take();
      return render("customer", created.object);
    },
    /** An active subscription for a customer, as if bought earlier (first invoice paid). */
    seedSubscription(params: {
      customer: string;
      price: string;
      quantity?: number;
      metadata?: Record<string, string>;
    }): { subscription: JsonObject; events: JsonObject[] } {
      const created = state.createSubscription({
        customer: params.customer,
        items: [{ price: params.price, quantity: params.quantity }],
        metadata: params.metadata,
      });
      take();
      return { subscription: render("subscription", created.object), events: created.events };
    },

    // Lifecycle helpers: each returns the event payloads Stripe would send, for the test to deliver -------
    /** The customer pays on the hosted Checkout page (optionally with a promotion code). */
    completeCheckout(
      sessionId: string,
      opts: { promotionCode?: string; email?: string } = {},
    ): { session: JsonObject; subscription: JsonObject | null; invoice: JsonObject | null; events: JsonObject[] } {
      const done = state.completeCheckout(sessionId, opts);
      take();
      return {
        session: render("checkout.session", done.object as CheckoutSessionRec),
        subscription: done.subscription ? render("subscription", done.subscription as SubscriptionRec) : null,
        invoice: done.invoice ? render("invoice", done.invoice as InvoiceRec) : null,
        events: done.events,
      };
    },
    /** The current period ends now: renewal, scheduled cancel or schedule phase change (see state.advancePeriod). */
    advancePeriod(
      subscriptionId: string,
      opts: { paymentFails?: boolean } = {},
    ): { subscription: JsonObject; invoice: JsonObject | null; events: JsonObject[] } {
      const done = state.advancePeriod(subscriptionId, opts);
      take();
      return {
        subscription: render("subscription", done.object),
        invoice: done.invoice ? render("invoice", done.invoice) : null,
        events: done.events,
      };
    },
    /** A payment fails: a retry of the open invoice, or else the renewal (subscription → past_due). */
    failPayment(subscriptionId: string): {
      subscription: JsonObject;
      invoice: JsonObject | null;
      events: JsonObject[];
    } {
      const done = state.failPayment(subscriptionId);
      take();
      return {
        subscription: render("subscription", done.object),
        invoice: done.invoice ? render("invoice", done.invoice) : null,
        events: done.events,
      };
    },
    /** An object as Stripe would render it now (account API version). */
    object(id: string): JsonObject {
      return state.renderId(id, { version: apiVersion });
    },

    // Webhooks ----------------------------------------------------------------------------------------------
    setWebhook(target: { url: string; secret: string; auto?: boolean } | undefined) {
      webhook = target;
    },
    deliver,

    // Faults ------------------------------------------------------------------------------------------------
    /** The next matching request(s) get an error answer (default: 500 api_error, once). */
    fail(fault: Fault = {}) {
      faults.push({ ...fault, left: fault.times ?? 1 });
    },
    /** Matching requests hang (for `ms`, or until release()). */
    stall(stall: Stall = {}): { release(): void; readonly held: number } {
      const entry = { ...stall, waiting: new Set<() => void>() };
      stalls.push(entry);
      return {
        /** Requests being held now. */
        get held() {
          return entry.waiting.size;
        },
        release() {
          stalls.splice(stalls.indexOf(entry), 1);
          for (const resolve of entry.waiting) resolve();
        },
      };
    },
    clearFaults() {
      faults.length = 0;
      for (const s of stalls.splice(0)) for (const resolve of s.waiting) resolve();
    },

    async close() {
      for (const s of stalls.splice(0)) for (const resolve of s.waiting) resolve();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
