/**
 * The fake Stripe account's state and behaviour, shared by the HTTP routes (./routes.ts) and the test
 * helpers (./server.ts). Records are typed internally and rendered to Stripe's JSON by `render()`, which
 * follows the API version asked for (the SDK's pinned version by default): since 2025-03-31 the billing
 * period lives on subscription items only; older versions also get it on the subscription (and
 * `invoice.subscription`, and `promotion_code.coupon` as an object before 2025-09-30).
 */
import { randomBytes } from "node:crypto";
import { missingResource, paramError, StripeApiError, type Json, type JsonObject } from "./params";

export type Metadata = Record<string, string>;

export interface CustomerRec {
  id: string;
  created: number;
  touched: number;
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  address: Json;
  shipping: Json;
  metadata: Metadata;
  preferred_locales: string[];
  invoice_settings: JsonObject;
  tax_exempt: string;
  balance: number;
  deleted: boolean;
}

export interface ProductRec {
  id: string;
  created: number;
  updated: number;
  name: string;
  active: boolean;
  description: string | null;
  metadata: Metadata;
  images: string[];
  default_price: string | null;
  url: string | null;
  unit_label: string | null;
  statement_descriptor: string | null;
  tax_code: string | null;
  shippable: boolean | null;
  marketing_features: Json[];
  deleted: boolean;
}

export interface Recurring {
  interval: "day" | "week" | "month" | "year";
  interval_count: number;
  usage_type: string;
  trial_period_days: number | null;
}

export interface PriceRec {
  id: string;
  created: number;
  active: boolean;
  currency: string;
  product: string;
  unit_amount: number | null;
  recurring: Recurring | null;
  lookup_key: string | null;
  nickname: string | null;
  metadata: Metadata;
  tax_behavior: string;
  billing_scheme: string;
}

export interface CouponRec {
  id: string;
  created: number;
  name: string | null;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  duration: string;
  duration_in_months: number | null;
  max_redemptions: number | null;
  redeem_by: number | null;
  times_redeemed: number;
  metadata: Metadata;
  applies_to: string[] | null;
  deleted: boolean;
}

export interface PromotionCodeRec {
  id: string;
  created: number;
  code: string;
  coupon: string;
  active: boolean;
  customer: string | null;
  expires_at: number | null;
  max_redemptions: number | null;
  times_redeemed: number;
  metadata: Metadata;
  restrictions: {
    first_time_transaction: boolean;
    minimum_amount: number | null;
    minimum_amount_currency: string | null;
  };
}

export interface LineItemRec {
  id: string;
  price: string;
  quantity: number;
}

export interface DiscountRec {
  id: string;
  coupon: string;
  promotion_code: string | null;
  start: number;
  end: number | null;
  customer: string | null;
  subscription: string | null;
  checkout_session: string | null;
  invoice: string | null;
}

export interface CheckoutSessionRec {
  id: string;
  created: number;
  expires_at: number;
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string | null;
  cancel_url: string | null;
  return_url: string | null;
  allow_promotion_codes: boolean | null;
  metadata: Metadata;
  line_items: LineItemRec[];
  subscription: string | null;
  invoice: string | null;
  discounts: { coupon: string | null; promotion_code: string | null }[];
  subscription_data: JsonObject | null;
  locale: string | null;
  ui_mode: string;
  currency: string | null;
  amount_subtotal: number;
  amount_total: number;
  amount_discount: number;
  url: string | null;
  customer_details: JsonObject | null;
  billing_address_collection: string | null;
  payment_method_collection: string | null;
}

export interface PortalSessionRec {
  id: string;
  created: number;
  customer: string;
  return_url: string | null;
  url: string;
  configuration: string;
  locale: string | null;
  flow: Json;
}

export interface ItemRec {
  id: string;
  created: number;
  price: string;
  quantity: number;
  metadata: Metadata;
  current_period_start: number;
  current_period_end: number;
}

export interface ProrationRec {
  id: string;
  price: string;
  amount: number;
  description: string;
  period: { start: number; end: number };
  subscription_item: string;
}

export interface SubscriptionRec {
  id: string;
  created: number;
  customer: string;
  status: "active" | "past_due" | "canceled" | "incomplete" | "incomplete_expired" | "trialing" | "unpaid" | "paused";
  items: ItemRec[];
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null };
  metadata: Metadata;
  latest_invoice: string | null;
  schedule: string | null;
  start_date: number;
  billing_cycle_anchor: number;
  currency: string;
  discounts: string[];
  description: string | null;
  default_payment_method: string | null;
  collection_method: string;
  trial_start: number | null;
  trial_end: number | null;
  pending_prorations: ProrationRec[];
}

export interface PhaseItemRec {
  price: string;
  quantity: number;
  metadata: Metadata;
}

export interface PhaseRec {
  start_date: number;
  end_date: number;
  items: PhaseItemRec[];
  proration_behavior: string;
  metadata: Metadata;
  currency: string;
  description: string | null;
}

export interface ScheduleRec {
  id: string;
  created: number;
  customer: string;
  subscription: string | null;
  status: "not_started" | "active" | "completed" | "released" | "canceled";
  phases: PhaseRec[];
  end_behavior: string;
  released_at: number | null;
  released_subscription: string | null;
  canceled_at: number | null;
  completed_at: number | null;
  metadata: Metadata;
}

export interface InvoiceLineRec {
  id: string;
  amount: number;
  price: string;
  quantity: number;
  description: string;
  period: { start: number; end: number };
  proration: boolean;
  subscription_item: string | null;
}

export interface InvoiceRec {
  id: string;
  created: number;
  customer: string;
  subscription: string | null;
  subscription_metadata: Metadata | null;
  status: "draft" | "open" | "paid" | "uncollectible" | "void";
  attempted: boolean;
  attempt_count: number;
  billing_reason: string;
  currency: string;
  lines: InvoiceLineRec[];
  subtotal: number;
  discount_amount: number;
  discounts: string[];
  total: number;
  amount_paid: number;
  period_start: number;
  period_end: number;
  number: string;
  next_payment_attempt: number | null;
  finalized_at: number | null;
  paid_at: number | null;
  metadata: Metadata;
}

type Kinds = {
  customer: CustomerRec;
  product: ProductRec;
  price: PriceRec;
  coupon: CouponRec;
  promotion_code: PromotionCodeRec;
  "checkout.session": CheckoutSessionRec;
  "billing_portal.session": PortalSessionRec;
  subscription: SubscriptionRec;
  subscription_schedule: ScheduleRec;
  invoice: InvoiceRec;
  discount: DiscountRec;
  event: JsonObject;
};
export type Kind = keyof Kinds;

interface Entry<K extends Kind = Kind> {
  kind: K;
  rec: Kinds[K];
  seq: number;
}

/** The API version where billing periods moved from the subscription to its items ("basil"). */
const PERIODS_ON_ITEMS = "2025-03-31";
/** The API version where `promotion_code.coupon` became `promotion.coupon` ("clover"). */
const PROMOTION_OBJECT = "2025-09-30";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export function randomId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return prefix + out;
}

/** Adds one billing interval the way Stripe does (month ends clamp: Jan 31 → Feb 28/29). */
export function addInterval(at: number, interval: Recurring["interval"], count = 1): number {
  const date = new Date(at * 1000);
  if (interval === "day") return at + 86_400 * count;
  if (interval === "week") return at + 7 * 86_400 * count;
  const months = interval === "year" ? 12 * count : count;
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const next = new Date(
    Date.UTC(
      y,
      m,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ),
  );
  return Math.floor(next.getTime() / 1000);
}

// Fields that `expand[]` may replace with the object they name, by object type (paths relative to it).
const EXPANDABLE: Record<string, string[]> = {
  customer: ["default_source", "test_clock", "invoice_settings.default_payment_method"],
  product: ["default_price", "tax_code"],
  price: ["product"],
  coupon: [],
  promotion_code: ["customer", "promotion.coupon", "coupon"],
  discount: ["customer", "promotion_code", "source.coupon"],
  "checkout.session": [
    "customer",
    "invoice",
    "payment_intent",
    "payment_link",
    "setup_intent",
    "subscription",
    "discounts.coupon",
    "discounts.promotion_code",
  ],
  "billing_portal.session": ["configuration"],
  subscription: [
    "customer",
    "default_payment_method",
    "default_source",
    "latest_invoice",
    "pending_setup_intent",
    "schedule",
    "discounts",
    "test_clock",
    "application",
    "on_behalf_of",
  ],
  subscription_item: ["discounts"],
  subscription_schedule: [
    "customer",
    "subscription",
    "test_clock",
    "application",
    "phases.items.price",
    "phases.items.plan",
    "phases.default_payment_method",
  ],
  invoice: [
    "customer",
    "subscription",
    "parent.subscription_details.subscription",
    "discounts",
    "default_payment_method",
    "latest_revision",
    "test_clock",
    "application",
    "on_behalf_of",
  ],
  line_item: ["discounts", "subscription", "pricing.price_details.price"],
  item: ["discounts.discount"],
  plan: ["product"],
  event: [],
};

/** Fields left out of an object unless asked for with `expand[]` ("includable" in Stripe's reference). */
const INCLUDABLE: Record<string, string[]> = {
  coupon: ["applies_to", "currency_options"],
  price: ["currency_options", "tiers"],
  customer: ["subscriptions", "sources", "tax", "tax_ids", "cash_balance", "invoice_credit_balance"],
  "checkout.session": ["line_items"],
  invoice: ["payments"],
};

const KIND_NAMES: Record<string, string> = {
  customer: "customer",
  product: "product",
  price: "price",
  coupon: "coupon",
  promotion_code: "promotion code",
  "checkout.session": "checkout.session",
  "billing_portal.session": "billing_portal.session",
  subscription: "subscription",
  subscription_schedule: "subscription schedule",
  invoice: "invoice",
  discount: "discount",
  event: "event",
};

export interface RenderContext {
  version: string;
}

export interface StateOptions {
  origin: string;
  /** The account's default API version: events are rendered with it. */
  apiVersion: string;
  now: () => number;
  /** Objects created or changed less than this many seconds ago are not found by search yet (Stripe's lag). */
  searchDelaySeconds: number;
}

export interface Outcome<T = JsonObject> {
  object: T;
  events: JsonObject[];
}

export class FakeStripeState {
  private entries = new Map<string, Entry>();
  private seq = 0;
  readonly events: JsonObject[] = [];
  private invoiceNumber = 0;
  /** Events emitted since the last drain (routes hand them to webhook delivery). */
  private pendingEvents: JsonObject[] = [];

  constructor(readonly options: StateOptions) {}

  now(): number {
    return this.options.now();
  }

  // -------------------------------------------------------------------------------------------------------
  // Storage

  put<K extends Kind>(kind: K, rec: Kinds[K] & { id: string }): Kinds[K] {
    const existing = this.entries.get(rec.id);
    this.entries.set(rec.id, { kind, rec, seq: existing?.seq ?? ++this.seq });
    return rec;
  }

  find<K extends Kind>(kind: K, id: string): Kinds[K] | undefined {
    const entry = this.entries.get(id);
    return entry && entry.kind === kind ? (entry.rec as Kinds[K]) : undefined;
  }

  /** The record, or Stripe's "No such …" error: 404 for a path id, 400 for a param that names one. */
  get<K extends Kind>(kind: K, id: string, param = "id"): Kinds[K] {
    const rec = this.find(kind, id);
    const deleted = rec && "deleted" in rec && (rec as { deleted: boolean }).deleted && kind !== "customer";
    if (!rec || deleted) throw missingResource(KIND_NAMES[kind], id, param, param === "id" ? 404 : 400);
    return rec;
  }

  all<K extends Kind>(kind: K): Kinds[K][] {
    return [...this.entries.values()]
      .filter((e): e is Entry<K> => e.kind === kind)
      .sort((a, b) => b.seq - a.seq)
      .map((e) => e.rec);
  }

  kindOf(id: string): Kind | undefined {
    return this.entries.get(id)?.kind;
  }

  // -------------------------------------------------------------------------------------------------------
  // Rendering, expansion and lists

  render(kind: Kind, rec: unknown, ctx: RenderContext): JsonObject {
    switch (kind) {
      case "customer":
        return this.renderCustomer(rec as CustomerRec);
      case "product":
        return this.renderProduct(rec as ProductRec);
      case "price":
        return this.renderPrice(rec as PriceRec);
      case "coupon":
        return this.renderCoupon(rec as CouponRec);
      case "promotion_code":
        return this.renderPromotionCode(rec as PromotionCodeRec, ctx);
      case "checkout.session":
        return this.renderCheckoutSession(rec as CheckoutSessionRec);
      case "billing_portal.session":
        return this.renderPortalSession(rec as PortalSessionRec);
      case "subscription":
        return this.renderSubscription(rec as SubscriptionRec, ctx);
      case "subscription_schedule":
        return this.renderSchedule(rec as ScheduleRec);
      case "invoice":
        return this.renderInvoice(rec as InvoiceRec, ctx);
      case "discount":
        return this.renderDiscount(rec as DiscountRec);
      case "event":
        return structuredClone(rec as JsonObject);
    }
  }

  renderId(id: string, ctx: RenderContext): JsonObject {
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`unknown id ${id}`);
    return this.render(entry.kind, entry.rec, ctx);
  }

  /** Applies `expand[]` to a rendered object or list, as Stripe does (at most four levels deep). */
  expand(json: JsonObject, paths: string[], ctx: RenderContext): JsonObject {
    for (const path of paths) {
      const segments = path.split(".");
      if (segments.length > 4 || segments.some((s) => s === "")) {
        throw paramError(`You cannot expand more than 4 levels of a property. Property: ${path}`, "expand");
      }
      this.expandAt(json, json, [], segments, path, ctx);
    }
    return json;
  }

  private expandAt(
    node: JsonObject,
    typed: JsonObject,
    rel: string[],
    segments: string[],
    path: string,
    ctx: RenderContext,
  ): void {
    const [head, ...rest] = segments;
    const type = String(typed.object ?? "");
    if ((node.object === "list" || node.object === "search_result") && rel.length === 0) {
      if (head !== "data") throw paramError(`This property cannot be expanded (${path}).`);
      for (const item of node.data as JsonObject[]) {
        if (rest.length > 0) this.expandAt(item, item, [], rest, path, ctx);
      }
      return;
    }
    const relPath = [...rel, head].join(".");
    let value = node[head];
    if (value === undefined && rel.length === 0 && INCLUDABLE[type]?.includes(head)) {
      const included = this.includable(type, typed, head, ctx);
      if (included === undefined) return;
      node[head] = included;
      value = included;
    } else if (value === undefined) {
      throw paramError(`This property cannot be expanded (${path}).`);
    }
    const expandable = EXPANDABLE[type]?.includes(relPath) ?? false;
    const expandOne = (v: Json): Json => {
      if (typeof v === "string" && expandable && this.entries.has(v)) return this.renderId(v, ctx);
      if (typeof v === "string") throw paramError(`This property cannot be expanded (${path}).`);
      return v;
    };
    if (typeof value === "string") {
      value = expandOne(value);
      node[head] = value;
    } else if (Array.isArray(value) && rest.length === 0) {
      if (!expandable && value.some((v) => typeof v === "string"))
        throw paramError(`This property cannot be expanded (${path}).`);
      node[head] = value.map(expandOne);
      return;
    } else if (value !== null && typeof value === "object" && !Array.isArray(value) && rest.length === 0) {
      if (!expandable && !INCLUDABLE[type]?.includes(head))
        throw paramError(`This property cannot be expanded (${path}).`);
      return;
    }
    if (rest.length === 0 || value === null) return;
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child === null || typeof child !== "object" || Array.isArray(child)) continue;
      const obj = child as JsonObject;
      if (typeof obj.object === "string" && obj.object !== "list") this.expandAt(obj, obj, [], rest, path, ctx);
      else if (obj.object === "list") this.expandAt(obj, obj, [], rest, path, ctx);
      else this.expandAt(obj, typed, [...rel, head], rest, path, ctx);
    }
  }

  private includable(type: string, json: JsonObject, field: string, ctx: RenderContext): Json | undefined {
    const id = String(json.id);
    if (type === "coupon" && field === "applies_to") {
      const coupon = this.find("coupon", id);
      return coupon?.applies_to ? { products: coupon.applies_to } : undefined;
    }
    if (type === "customer" && field === "subscriptions") {
      const subs = this.all("subscription").filter((s) => s.customer === id && s.status !== "canceled");
      return this.listJson(
        subs.map((s) => this.renderSubscription(s, ctx)),
        false,
        `/v1/customers/${id}/subscriptions`,
        subs.length,
      );
    }
    if (type === "checkout.session" && field === "line_items") {
      const session = this.find("checkout.session", id);
      const items = (session?.line_items ?? []).map((li) => this.renderLineItem(session!, li));
      return this.listJson(items, false, `/v1/checkout/sessions/${id}/line_items`);
    }
    return undefined;
  }

  listJson(data: JsonObject[], hasMore: boolean, url: string, totalCount?: number): JsonObject {
    return {
      object: "list",
      data,
      has_more: hasMore,
      url,
      ...(totalCount !== undefined ? { total_count: totalCount } : {}),
    };
  }

  /** One page of a list, newest first, with Stripe's limit / starting_after / ending_before. */
  page<T extends { id: string }>(items: T[], params: JsonObject): { data: T[]; hasMore: boolean } {
    const limit = params.limit === undefined ? 10 : Number(params.limit);
    if (limit > 100)
      throw paramError(`This value must be less than or equal to 100 (it currently is '${limit}').`, "limit");
    if (limit < 1) throw paramError(`This value must be greater than or equal to 1.`, "limit");
    if (params.starting_after !== undefined) {
      const i = items.findIndex((item) => item.id === params.starting_after);
      if (i < 0)
        throw missingResource(
          KIND_NAMES[this.kindOf(String(params.starting_after)) ?? "customer"] ?? "object",
          String(params.starting_after),
          "starting_after",
          400,
        );
      const rest = items.slice(i + 1);
      return { data: rest.slice(0, limit), hasMore: rest.length > limit };
    }
    if (params.ending_before !== undefined) {
      const i = items.findIndex((item) => item.id === params.ending_before);
      if (i < 0) throw missingResource("object", String(params.ending_before), "ending_before", 400);
      const before = items.slice(0, i);
      return { data: before.slice(Math.max(0, before.length - limit)), hasMore: before.length > limit };
    }
    return { data: items.slice(0, limit), hasMore: items.length > limit };
  }

  // -------------------------------------------------------------------------------------------------------
  // Events

  emit(type: string, kind: Kind, rec: unknown, previous?: JsonObject): JsonObject {
    const object = this.render(kind, rec, { version: this.options.apiVersion });
    const event: JsonObject = {
      id: randomId("evt_"),
      object: "event",
      api_version: this.options.apiVersion,
      created: this.now(),
      data: previous ? { object, previous_attributes: previous } : { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.put("event", event as JsonObject & { id: string });
    this.events.push(event);
    this.pendingEvents.push(event);
    return event;
  }

  /** Events emitted since the last call. */
  drainEvents(): JsonObject[] {
    const out = this.pendingEvents;
    this.pendingEvents = [];
    return out;
  }

  /** Runs a change and emits `<type>` with `previous_attributes` for the top-level fields that changed. */
  private changed<K extends Kind>(kind: K, rec: Kinds[K], type: string, change: () => void): JsonObject | null {
    const ctx = { version: this.options.apiVersion };
    const before = this.render(kind, rec, ctx);
    change();
    const after = this.render(kind, rec, ctx);
    const previous: JsonObject = {};
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key] ?? null;
    }
    if (Object.keys(previous).length === 0) return null;
    return this.emit(type, kind, rec, previous);
  }

  // -------------------------------------------------------------------------------------------------------
  // Customers

  private renderCustomer(c: CustomerRec): JsonObject {
    if (c.deleted) return { id: c.id, object: "customer", deleted: true };
    return {
      id: c.id,
      object: "customer",
      address: c.address,
      balance: c.balance,
      created: c.created,
      currency: this.customerCurrency(c.id),
      customer_account: null,
      default_source: null,
      delinquent: this.all("invoice").some((i) => i.customer === c.id && i.status === "open" && i.attempted),
      description: c.description,
      discount: null,
      email: c.email,
      invoice_prefix: c.id.slice(4, 12).toUpperCase(),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
        ...c.invoice_settings,
      },
      livemode: false,
      metadata: { ...c.metadata },
      name: c.name,
      next_invoice_sequence: this.all("invoice").filter((i) => i.customer === c.id).length + 1,
      phone: c.phone,
      preferred_locales: [...c.preferred_locales],
      shipping: c.shipping,
      tax_exempt: c.tax_exempt,
      test_clock: null,
    };
  }

  private customerCurrency(id: string): string | null {
    return this.all("subscription").find((s) => s.customer === id)?.currency ?? null;
  }

  createCustomer(params: JsonObject): Outcome<CustomerRec> {
    const now = this.now();
    const c = this.put("customer", {
      id: randomId("cus_", 14),
      created: now,
      touched: now,
      email: (params.email as string | null) ?? null,
      name: (params.name as string | null) ?? null,
      description: (params.description as string | null) ?? null,
      phone: (params.phone as string | null) ?? null,
      address: (params.address as Json) ?? null,
      shipping: (params.shipping as Json) ?? null,
      metadata: (params.metadata as Metadata) ?? {},
      preferred_locales: (params.preferred_locales as string[]) ?? [],
      invoice_settings: (params.invoice_settings as JsonObject) ?? {},
      tax_exempt: (params.tax_exempt as string) ?? "none",
      balance: (params.balance as number) ?? 0,
      deleted: false,
    });
    return { object: c, events: [this.emit("customer.created", "customer", c)] };
  }

  updateCustomer(id: string, params: JsonObject): Outcome<CustomerRec> {
    const c = this.liveCustomer(id, "id");
    const event = this.changed("customer", c, "customer.updated", () => {
      for (const key of [
        "email",
        "name",
        "description",
        "phone",
        "address",
        "shipping",
        "tax_exempt",
        "balance",
      ] as const) {
        if (key in params) (c as unknown as JsonObject)[key] = params[key] ?? null;
      }
      if ("metadata" in params) c.metadata = mergeMetadata(c.metadata, params.metadata);
      if (params.preferred_locales) c.preferred_locales = params.preferred_locales as string[];
      if (params.invoice_settings)
        c.invoice_settings = { ...c.invoice_settings, ...(params.invoice_settings as JsonObject) };
      c.touched = this.now();
    });
    return { object: c, events: event ? [event] : [] };
  }

  deleteCustomer(id: string): Outcome<CustomerRec> {
    const c = this.liveCustomer(id, "id");
    const events = [this.emit("customer.deleted", "customer", c)];
    for (const sub of this.all("subscription").filter((s) => s.customer === id && s.status !== "canceled")) {
      events.push(...this.cancelSubscription(sub.id, {}).events);
    }
    c.deleted = true;
    return { object: c, events };
  }

  /** A customer that exists and is not deleted (a deleted one is "No such customer" when named in a param). */
  liveCustomer(id: string, param: string): CustomerRec {
    const c = this.find("customer", id);
    if (!c || (c.deleted && param !== "id")) throw missingResource("customer", id, param, param === "id" ? 404 : 400);
    return c;
  }

  /** Stripe's search query language, for customers: `field:'value'`, `field~'sub'`, `-field:…`, AND / OR. */
  searchCustomers(query: string): CustomerRec[] {
    const clauses = parseSearchQuery(query);
    const visibleBefore = this.now() - this.options.searchDelaySeconds;
    return this.all("customer").filter((c) => {
      if (c.deleted || c.touched > visibleBefore) return false;
      const results = clauses.terms.map((term) => {
        const value =
          term.field === "metadata"
            ? c.metadata[term.key!]
            : term.field === "created"
              ? c.created
              : (c as unknown as Record<string, unknown>)[term.field];
        let hit: boolean;
        if (term.op === ":")
          hit = value !== undefined && value !== null && String(value).toLowerCase() === term.value.toLowerCase();
        else if (term.op === "~")
          hit = typeof value === "string" && value.toLowerCase().includes(term.value.toLowerCase());
        else {
          const n = Number(value);
          const v = Number(term.value);
          hit = term.op === ">" ? n > v : term.op === "<" ? n < v : term.op === ">=" ? n >= v : n <= v;
        }
        return term.negate ? !hit : hit;
      });
      return clauses.join === "OR" ? results.some(Boolean) : results.every(Boolean);
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // Products and prices

  private renderProduct(p: ProductRec): JsonObject {
    if (p.deleted) return { id: p.id, object: "product", deleted: true };
    return {
      id: p.id,
      object: "product",
      active: p.active,
      created: p.created,
      default_price: p.default_price,
      description: p.description,
      images: [...p.images],
      livemode: false,
      marketing_features: structuredClone(p.marketing_features),
      metadata: { ...p.metadata },
      name: p.name,
      package_dimensions: null,
      shippable: p.shippable,
      statement_descriptor: p.statement_descriptor,
      tax_code: p.tax_code,
      tax_details: null,
      type: "service",
      unit_label: p.unit_label,
      updated: p.updated,
      url: p.url,
    };
  }

  createProduct(params: JsonObject): Outcome<ProductRec> {
    const now = this.now();
    if (params.id && this.entries.has(String(params.id))) {
      throw paramError(`Product already exists.`, "id", "resource_already_exists");
    }
    const p = this.put("product", {
      id: (params.id as string) ?? randomId("prod_", 14),
      created: now,
      updated: now,
      name: params.name as string,
      active: (params.active as boolean) ?? true,
      description: (params.description as string | null) ?? null,
      metadata: (params.metadata as Metadata) ?? {},
      images: (params.images as string[]) ?? [],
      default_price: null,
      url: (params.url as string | null) ?? null,
      unit_label: (params.unit_label as string | null) ?? null,
      statement_descriptor: (params.statement_descriptor as string | null) ?? null,
      tax_code: (params.tax_code as string | null) ?? null,
      shippable: (params.shippable as boolean | null) ?? null,
      marketing_features: (params.marketing_features as Json[]) ?? [],
      deleted: false,
    });
    const events = [this.emit("product.created", "product", p)];
    if (params.default_price_data) {
      const data = params.default_price_data as JsonObject;
      const price = this.createPrice({ ...data, product: p.id });
      p.default_price = price.object.id;
      events.push(...price.events);
    }
    return { object: p, events };
  }

  updateProduct(id: string, params: JsonObject): Outcome<ProductRec> {
    const p = this.get("product", id);
    if (params.default_price) this.get("price", String(params.default_price), "default_price");
    const event = this.changed("product", p, "product.updated", () => {
      for (const key of [
        "name",
        "active",
        "description",
        "url",
        "unit_label",
        "statement_descriptor",
        "tax_code",
        "shippable",
        "images",
        "default_price",
        "marketing_features",
      ] as const) {
        if (key in params) (p as unknown as JsonObject)[key] = params[key] ?? null;
      }
      if ("metadata" in params) p.metadata = mergeMetadata(p.metadata, params.metadata);
      p.updated = this.now();
    });
    return { object: p, events: event ? [event] : [] };
  }

  deleteProduct(id: string): Outcome<ProductRec> {
    const p = this.get("product", id);
    if (this.all("price").some((price) => price.product === id)) {
      throw paramError("This product cannot be deleted because it has one or more user-created prices.", undefined);
    }
    p.deleted = true;
    return { object: p, events: [this.emit("product.deleted", "product", p)] };
  }

  private renderPrice(p: PriceRec): JsonObject {
    return {
      id: p.id,
      object: "price",
      active: p.active,
      billing_scheme: p.billing_scheme,
      created: p.created,
      currency: p.currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: p.lookup_key,
      metadata: { ...p.metadata },
      nickname: p.nickname,
      product: p.product,
      recurring: p.recurring ? { ...p.recurring, meter: null } : null,
      tax_behavior: p.tax_behavior,
      tiers_mode: null,
      transform_quantity: null,
      type: p.recurring ? "recurring" : "one_time",
      unit_amount: p.unit_amount,
      unit_amount_decimal: p.unit_amount === null ? null : String(p.unit_amount),
    };
  }

  /** The legacy Plan object Stripe still puts beside `price` on subscription items. */
  private renderPlan(p: PriceRec): JsonObject {
    return {
      id: p.id,
      object: "plan",
      active: p.active,
      amount: p.unit_amount,
      amount_decimal: p.unit_amount === null ? null : String(p.unit_amount),
      billing_scheme: p.billing_scheme,
      created: p.created,
      currency: p.currency,
      interval: p.recurring?.interval ?? "month",
      interval_count: p.recurring?.interval_count ?? 1,
      livemode: false,
      metadata: { ...p.metadata },
      meter: null,
      nickname: p.nickname,
      product: p.product,
      tiers_mode: null,
      transform_usage: null,
      trial_period_days: p.recurring?.trial_period_days ?? null,
      usage_type: p.recurring?.usage_type ?? "licensed",
    };
  }

  createPrice(params: JsonObject): Outcome<PriceRec> {
    const events: JsonObject[] = [];
    let product = params.product as string | undefined;
    if (product && params.product_data)
      throw paramError(
        "You may only specify one of these parameters: product, product_data.",
        "product",
        "parameters_exclusive",
      );
    if (!product && !params.product_data)
      throw paramError("Missing required param: product.", "product", "parameter_missing");
    if (product) this.get("product", product, "product");
    else {
      const created = this.createProduct(params.product_data as JsonObject);
      product = created.object.id;
      events.push(...created.events);
    }
    if (
      params.unit_amount === undefined &&
      params.unit_amount_decimal === undefined &&
      params.custom_unit_amount === undefined
    ) {
      throw paramError("Missing required param: unit_amount.", "unit_amount", "parameter_missing");
    }
    const lookupKey = (params.lookup_key as string | undefined) ?? null;
    if (lookupKey) {
      const holder = this.all("price").find((p) => p.lookup_key === lookupKey);
      if (holder && !params.transfer_lookup_key) {
        throw paramError(`A price (\`${holder.id}\`) already uses that lookup key.`, "lookup_key");
      }
      if (holder) holder.lookup_key = null;
    }
    const recurring = params.recurring as JsonObject | undefined;
    const p = this.put("price", {
      id: randomId("price_"),
      created: this.now(),
      active: (params.active as boolean) ?? true,
      currency: String(params.currency).toLowerCase(),
      product,
      unit_amount:
        params.unit_amount !== undefined
          ? Number(params.unit_amount)
          : Math.round(Number(params.unit_amount_decimal ?? 0)),
      recurring: recurring
        ? {
            interval: recurring.interval as Recurring["interval"],
            interval_count: (recurring.interval_count as number) ?? 1,
            usage_type: (recurring.usage_type as string) ?? "licensed",
            trial_period_days: (recurring.trial_period_days as number) ?? null,
          }
        : null,
      lookup_key: lookupKey,
      nickname: (params.nickname as string | null) ?? null,
      metadata: (params.metadata as Metadata) ?? {},
      tax_behavior: (params.tax_behavior as string) ?? "unspecified",
      billing_scheme: (params.billing_scheme as string) ?? "per_unit",
    });
    events.push(this.emit("price.created", "price", p));
    return { object: p, events };
  }

  updatePrice(id: string, params: JsonObject): Outcome<PriceRec> {
    const p = this.get("price", id);
    if (params.lookup_key) {
      const holder = this.all("price").find((other) => other.lookup_key === params.lookup_key && other.id !== id);
      if (holder && !params.transfer_lookup_key)
        throw paramError(`A price (\`${holder.id}\`) already uses that lookup key.`, "lookup_key");
      if (holder) holder.lookup_key = null;
    }
    const event = this.changed("price", p, "price.updated", () => {
      for (const key of ["active", "nickname", "tax_behavior", "lookup_key"] as const) {
        if (key in params) (p as unknown as JsonObject)[key] = params[key] ?? null;
      }
      if ("metadata" in params) p.metadata = mergeMetadata(p.metadata, params.metadata);
    });
    return { object: p, events: event ? [event] : [] };
  }

  // -------------------------------------------------------------------------------------------------------
  // Coupons and promotion codes

  couponValid(c: CouponRec): boolean {
    if (c.deleted) return false;
    if (c.redeem_by !== null && c.redeem_by <= this.now()) return false;
    if (c.max_redemptions !== null && c.times_redeemed >= c.max_redemptions) return false;
    return true;
  }

  private renderCoupon(c: CouponRec): JsonObject {
    if (c.deleted) return { id: c.id, object: "coupon", deleted: true };
    return {
      id: c.id,
      object: "coupon",
      amount_off: c.amount_off,
      created: c.created,
      currency: c.currency,
      duration: c.duration,
      duration_in_months: c.duration_in_months,
      livemode: false,
      max_redemptions: c.max_redemptions,
      metadata: { ...c.metadata },
      name: c.name,
      percent_off: c.percent_off,
      redeem_by: c.redeem_by,
      times_redeemed: c.times_redeemed,
      valid: this.couponValid(c),
    };
  }

  createCoupon(params: JsonObject): Outcome<CouponRec> {
    const hasPercent = params.percent_off !== undefined;
    const hasAmount = params.amount_off !== undefined;
    if (hasPercent && hasAmount)
      throw paramError(
        "You may only specify one of these parameters: amount_off, percent_off.",
        "amount_off",
        "parameters_exclusive",
      );
    if (!hasPercent && !hasAmount)
      throw paramError("You must pass either `percent_off` or `amount_off`.", "percent_off");
    if (hasAmount && !params.currency) throw paramError("You must pass currency when passing amount_off", "currency");
    if (hasPercent && (Number(params.percent_off) <= 0 || Number(params.percent_off) > 100)) {
      throw paramError("Percent off must be between 0 and 100", "percent_off");
    }
    const duration = (params.duration as string) ?? "once";
    if (duration === "repeating" && params.duration_in_months === undefined) {
      throw paramError("Missing required param: duration_in_months.", "duration_in_months", "parameter_missing");
    }
    if (params.id && this.entries.has(String(params.id)))
      throw paramError("Coupon already exists.", "id", "resource_already_exists");
    for (const [i, product] of (
      ((params.applies_to as JsonObject | undefined)?.products as string[] | undefined) ?? []
    ).entries()) {
      this.get("product", product, `applies_to[products][${i}]`);
    }
    const c = this.put("coupon", {
      id: (params.id as string) ?? randomId("", 8),
      created: this.now(),
      name: (params.name as string | null) ?? null,
      percent_off: hasPercent ? Number(params.percent_off) : null,
      amount_off: hasAmount ? Number(params.amount_off) : null,
      currency: hasAmount ? String(params.currency).toLowerCase() : null,
      duration,
      duration_in_months: (params.duration_in_months as number) ?? null,
      max_redemptions: (params.max_redemptions as number) ?? null,
      redeem_by: (params.redeem_by as number) ?? null,
      times_redeemed: 0,
      metadata: (params.metadata as Metadata) ?? {},
      applies_to: ((params.applies_to as JsonObject | undefined)?.products as string[] | undefined) ?? null,
      deleted: false,
    });
    return { object: c, events: [this.emit("coupon.created", "coupon", c)] };
  }

  updateCoupon(id: string, params: JsonObject): Outcome<CouponRec> {
    const c = this.get("coupon", id);
    const event = this.changed("coupon", c, "coupon.updated", () => {
      if ("name" in params) c.name = (params.name as string | null) ?? null;
      if ("metadata" in params) c.metadata = mergeMetadata(c.metadata, params.metadata);
    });
    return { object: c, events: event ? [event] : [] };
  }

  deleteCoupon(id: string): Outcome<CouponRec> {
    const c = this.get("coupon", id);
    const event = this.emit("coupon.deleted", "coupon", c);
    c.deleted = true;
    return { object: c, events: [event] };
  }

  promotionCodeActive(p: PromotionCodeRec): boolean {
    const coupon = this.find("coupon", p.coupon);
    if (!p.active || !coupon || !this.couponValid(coupon)) return false;
    if (p.expires_at !== null && p.expires_at <= this.now()) return false;
    if (p.max_redemptions !== null && p.times_redeemed >= p.max_redemptions) return false;
    return true;
  }

  private renderPromotionCode(p: PromotionCodeRec, ctx: RenderContext): JsonObject {
    const json: JsonObject = {
      id: p.id,
      object: "promotion_code",
      active: this.promotionCodeActive(p),
      code: p.code,
      created: p.created,
      customer: p.customer,
      customer_account: null,
      expires_at: p.expires_at,
      livemode: false,
      max_redemptions: p.max_redemptions,
      metadata: { ...p.metadata },
      promotion: { coupon: p.coupon, type: "coupon" },
      restrictions: { ...p.restrictions },
      times_redeemed: p.times_redeemed,
    };
    if (ctx.version < PROMOTION_OBJECT) {
      delete json.promotion;
      json.coupon = this.renderCoupon(this.find("coupon", p.coupon)!);
    }
    return json;
  }

  createPromotionCode(params: JsonObject): Outcome<PromotionCodeRec> {
    const promotion = params.promotion as JsonObject;
    if (promotion.type !== "coupon") throw paramError("Invalid type: must be one of coupon", "promotion[type]");
    if (!promotion.coupon)
      throw paramError("Missing required param: promotion[coupon].", "promotion[coupon]", "parameter_missing");
    const coupon = this.get("coupon", String(promotion.coupon), "promotion[coupon]");
    if (params.customer) this.liveCustomer(String(params.customer), "customer");
    const code = (params.code as string | undefined) ?? randomId("", 8).toUpperCase();
    if (!/^[A-Za-z0-9-]+$/.test(code))
      throw paramError("The code may only contain letters, digits and dashes.", "code");
    const taken = this.all("promotion_code").find(
      (p) =>
        p.code.toLowerCase() === code.toLowerCase() &&
        this.promotionCodeActive(p) &&
        p.customer === ((params.customer as string) ?? null),
    );
    if (taken) throw paramError(`An active promotion code with \`code: ${code}\` already exists.`, "code");
    const restrictions = (params.restrictions as JsonObject | undefined) ?? {};
    const p = this.put("promotion_code", {
      id: randomId("promo_"),
      created: this.now(),
      code,
      coupon: coupon.id,
      active: (params.active as boolean) ?? true,
      customer: (params.customer as string | undefined) ?? null,
      expires_at: (params.expires_at as number | undefined) ?? null,
      max_redemptions: (params.max_redemptions as number | undefined) ?? null,
      times_redeemed: 0,
      metadata: (params.metadata as Metadata) ?? {},
      restrictions: {
        first_time_transaction: (restrictions.first_time_transaction as boolean) ?? false,
        minimum_amount: (restrictions.minimum_amount as number | undefined) ?? null,
        minimum_amount_currency: (restrictions.minimum_amount_currency as string | undefined) ?? null,
      },
    });
    return { object: p, events: [this.emit("promotion_code.created", "promotion_code", p)] };
  }

  updatePromotionCode(id: string, params: JsonObject): Outcome<PromotionCodeRec> {
    const p = this.get("promotion_code", id);
    if (params.active === true && !p.active) {
      const coupon = this.find("coupon", p.coupon);
      if (!coupon || !this.couponValid(coupon))
        throw paramError(
          "The coupon of this promotion code is no longer valid, so the code cannot be reactivated.",
          "active",
        );
    }
    const event = this.changed("promotion_code", p, "promotion_code.updated", () => {
      if ("active" in params) p.active = Boolean(params.active);
      if ("metadata" in params) p.metadata = mergeMetadata(p.metadata, params.metadata);
    });
    return { object: p, events: event ? [event] : [] };
  }

  private renderDiscount(d: DiscountRec): JsonObject {
    return {
      id: d.id,
      object: "discount",
      checkout_session: d.checkout_session,
      customer: d.customer,
      customer_account: null,
      end: d.end,
      invoice: d.invoice,
      invoice_item: null,
      promotion_code: d.promotion_code,
      source: { coupon: d.coupon, type: "coupon" },
      start: d.start,
      subscription: d.subscription,
      subscription_item: null,
    };
  }

  /** The amount a coupon takes off lines (price id, amount), honouring `applies_to`. */
  discountOn(couponId: string, lines: { price: string; amount: number }[], currency: string): number {
    const coupon = this.find("coupon", couponId);
    if (!coupon) return 0;
    const applicable = lines
      .filter((line) => !coupon.applies_to || coupon.applies_to.includes(this.find("price", line.price)?.product ?? ""))
      .reduce((sum, line) => sum + Math.max(0, line.amount), 0);
    if (coupon.percent_off !== null) return Math.round((applicable * coupon.percent_off) / 100);
    if (coupon.amount_off !== null && coupon.currency === currency) return Math.min(coupon.amount_off, applicable);
    return 0;
  }

  private redeem(couponId: string, promotionCodeId: string | null): void {
    const coupon = this.find("coupon", couponId);
    if (coupon) coupon.times_redeemed += 1;
    if (promotionCodeId) {
      const promo = this.find("promotion_code", promotionCodeId);
      if (promo) promo.times_redeemed += 1;
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Checkout and the billing portal

  private renderLineItem(session: CheckoutSessionRec, li: LineItemRec): JsonObject {
    const price = this.find("price", li.price)!;
    const product = this.find("product", price.product);
    const subtotal = (price.unit_amount ?? 0) * li.quantity;
    const share =
      session.amount_subtotal > 0 ? Math.round((session.amount_discount * subtotal) / session.amount_subtotal) : 0;
    return {
      id: li.id,
      object: "item",
      adjustable_quantity: null,
      amount_discount: share,
      amount_subtotal: subtotal,
      amount_tax: 0,
      amount_total: subtotal - share,
      currency: price.currency,
      description: product?.name ?? null,
      metadata: {},
      price: this.renderPrice(price),
      quantity: li.quantity,
    };
  }

  private renderCheckoutSession(s: CheckoutSessionRec): JsonObject {
    return {
      id: s.id,
      object: "checkout.session",
      adaptive_pricing: null,
      after_expiration: null,
      allow_promotion_codes: s.allow_promotion_codes,
      amount_subtotal: s.amount_subtotal,
      amount_total: s.amount_total,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: s.billing_address_collection,
      cancel_url: s.cancel_url,
      client_reference_id: s.client_reference_id,
      client_secret: null,
      collected_information:
        s.status === "complete" ? { business_name: null, individual_name: null, shipping_details: null } : null,
      consent: null,
      consent_collection: null,
      created: s.created,
      currency: s.currency,
      currency_conversion: null,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: s.customer,
      customer_account: null,
      customer_creation: s.mode === "payment" ? "if_required" : null,
      customer_details: s.customer_details,
      customer_email: s.customer_email,
      discounts: s.discounts.map((d) => ({ ...d })),
      expires_at: s.expires_at,
      integration_identifier: null,
      invoice: s.invoice,
      invoice_creation: null,
      livemode: false,
      locale: s.locale,
      managed_payments: null,
      metadata: { ...s.metadata },
      mode: s.mode,
      origin_context: null,
      payment_intent: null,
      payment_link: null,
      payment_method_collection: s.payment_method_collection ?? "always",
      payment_method_configuration_details: null,
      payment_method_options: { card: { request_three_d_secure: "automatic" } },
      payment_method_types: ["card"],
      payment_status: s.payment_status,
      permissions: null,
      phone_number_collection: { enabled: false },
      recovered_from: null,
      saved_payment_method_options: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: s.status,
      submit_type: null,
      subscription: s.subscription,
      success_url: s.success_url,
      total_details: { amount_discount: s.amount_discount, amount_shipping: 0, amount_tax: 0 },
      ui_mode: s.ui_mode,
      url: s.status === "open" ? s.url : null,
      wallet_options: null,
    };
  }

  createCheckoutSession(params: JsonObject): Outcome<CheckoutSessionRec> {
    const mode = (params.mode as string | undefined) ?? "payment";
    if (params.allow_promotion_codes !== undefined && params.discounts !== undefined) {
      throw paramError(
        "You may only specify one of these parameters: allow_promotion_codes, discounts.",
        "allow_promotion_codes",
        "parameters_exclusive",
      );
    }
    if (params.customer !== undefined && params.customer_email !== undefined) {
      throw paramError(
        "You may only specify one of these parameters: customer, customer_email.",
        "customer",
        "parameters_exclusive",
      );
    }
    if (params.customer_creation !== undefined && mode !== "payment") {
      throw paramError("`customer_creation` can only be used in `payment` mode.", "customer_creation");
    }
    if (params.subscription_data !== undefined && mode !== "subscription") {
      throw paramError("You can not pass `subscription_data` in `payment` mode.", "subscription_data");
    }
    const customer = params.customer ? this.liveCustomer(String(params.customer), "customer") : null;
    const rawItems = (params.line_items as JsonObject[] | undefined) ?? [];
    if (mode !== "setup" && rawItems.length === 0)
      throw paramError("Missing required param: line_items.", "line_items", "parameter_missing");
    const lineItems: LineItemRec[] = rawItems.map((raw, i) => {
      if (!raw.price)
        throw paramError(
          `Missing required param: line_items[${i}][price].`,
          `line_items[${i}][price]`,
          "parameter_missing",
        );
      const price = this.get("price", String(raw.price), `line_items[${i}][price]`);
      if (!price.active)
        throw paramError(
          "The price specified is inactive. This field only accepts active prices.",
          `line_items[${i}][price]`,
        );
      if (mode === "payment" && price.recurring) {
        throw paramError(
          "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.",
          "line_items",
        );
      }
      if (raw.quantity === undefined)
        throw paramError(
          `Missing required param: line_items[${i}][quantity].`,
          `line_items[${i}][quantity]`,
          "parameter_missing",
        );
      return { id: randomId("li_"), price: price.id, quantity: Number(raw.quantity) };
    });
    const prices = lineItems.map((li) => this.find("price", li.price)!);
    if (mode === "subscription") {
      if (!prices.some((p) => p.recurring)) {
        throw paramError(
          "You must provide at least one recurring price in `subscription` mode when using prices.",
          "line_items",
        );
      }
      const intervals = new Set(
        prices.filter((p) => p.recurring).map((p) => `${p.recurring!.interval}/${p.recurring!.interval_count}`),
      );
      if (intervals.size > 1)
        throw paramError("Checkout does not support multiple prices with different billing intervals.", "line_items");
    }
    const currencies = new Set(prices.map((p) => p.currency));
    if (currencies.size > 1) throw paramError("All prices must be in the same currency.", "line_items");
    const discounts = ((params.discounts as JsonObject[] | undefined) ?? []).map((d, i) => {
      if (d.coupon) {
        const c = this.get("coupon", String(d.coupon), `discounts[${i}][coupon]`);
        if (!this.couponValid(c))
          throw paramError(`This coupon is no longer valid: '${c.id}'`, `discounts[${i}][coupon]`, "coupon_expired");
        return { coupon: c.id, promotion_code: null };
      }
      const promo = this.get("promotion_code", String(d.promotion_code), `discounts[${i}][promotion_code]`);
      if (!this.promotionCodeActive(promo))
        throw paramError("This promotion code is no longer valid.", `discounts[${i}][promotion_code]`);
      return { coupon: promo.coupon, promotion_code: promo.id };
    });
    const now = this.now();
    const id = randomId("cs_test_", 58);
    const session = this.put("checkout.session", {
      id,
      created: now,
      expires_at: (params.expires_at as number | undefined) ?? now + 24 * 3600,
      mode,
      status: "open",
      payment_status: "unpaid",
      customer: customer?.id ?? null,
      customer_email: (params.customer_email as string | undefined) ?? null,
      client_reference_id: (params.client_reference_id as string | undefined) ?? null,
      success_url: (params.success_url as string | undefined) ?? null,
      cancel_url: (params.cancel_url as string | undefined) ?? null,
      return_url: (params.return_url as string | undefined) ?? null,
      allow_promotion_codes: (params.allow_promotion_codes as boolean | undefined) ?? null,
      metadata: (params.metadata as Metadata) ?? {},
      line_items: lineItems,
      subscription: null,
      invoice: null,
      discounts,
      subscription_data: (params.subscription_data as JsonObject | undefined) ?? null,
      locale: (params.locale as string | undefined) ?? null,
      ui_mode: (params.ui_mode as string | undefined) ?? "hosted",
      currency: prices[0]?.currency ?? null,
      amount_subtotal: 0,
      amount_total: 0,
      amount_discount: 0,
      url: `${this.options.origin}/c/pay/${id}`,
      customer_details: customer
        ? { email: customer.email, name: customer.name, phone: null, address: null, tax_exempt: "none", tax_ids: [] }
        : null,
      billing_address_collection: (params.billing_address_collection as string | undefined) ?? null,
      payment_method_collection: (params.payment_method_collection as string | undefined) ?? null,
    });
    this.priceSession(session);
    return { object: session, events: [] };
  }

  private priceSession(s: CheckoutSessionRec): void {
    const lines = s.line_items.map((li) => ({
      price: li.price,
      amount: (this.find("price", li.price)!.unit_amount ?? 0) * li.quantity,
    }));
    s.amount_subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    s.amount_discount = s.discounts.reduce(
      (sum, d) => sum + (d.coupon ? this.discountOn(d.coupon, lines, s.currency ?? "usd") : 0),
      0,
    );
    s.amount_total = Math.max(0, s.amount_subtotal - s.amount_discount);
  }

  expireCheckoutSession(id: string): Outcome<CheckoutSessionRec> {
    const s = this.get("checkout.session", id);
    if (s.status !== "open")
      throw paramError(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
      );
    s.status = "expired";
    return { object: s, events: [this.emit("checkout.session.expired", "checkout.session", s)] };
  }

  /**
   * What Stripe does when the customer pays on the hosted page: the customer (created from the email when
   * the session had none), the subscription with its first paid invoice, the redeemed promotion code, and
   * the session marked complete — with the events Stripe sends, in a typical order.
   */
  completeCheckout(
    id: string,
    options: { promotionCode?: string; email?: string } = {},
  ): Outcome<CheckoutSessionRec> & { subscription: SubscriptionRec | null; invoice: InvoiceRec | null } {
    const s = this.get("checkout.session", id);
    if (s.status !== "open") throw new Error(`checkout session ${id} is ${s.status}, not open`);
    const events: JsonObject[] = [];
    if (options.promotionCode) {
      if (!s.allow_promotion_codes) throw new Error("this session does not allow promotion codes");
      const promo = this.all("promotion_code").find(
        (p) => p.code.toLowerCase() === options.promotionCode!.toLowerCase() && this.promotionCodeActive(p),
      );
      if (!promo) throw new Error(`no active promotion code ${options.promotionCode}`);
      s.discounts = [{ coupon: promo.coupon, promotion_code: promo.id }];
      this.priceSession(s);
    }
    let customer = s.customer ? this.find("customer", s.customer)! : null;
    if (!customer) {
      const email = options.email ?? s.customer_email ?? "customer@example.com";
      const created = this.createCustomer({ email });
      customer = created.object;
      events.push(...created.events);
      s.customer = customer.id;
    }
    s.customer_details = {
      email: customer.email,
      name: customer.name,
      phone: null,
      address: null,
      tax_exempt: "none",
      tax_ids: [],
    };
    let subscription: SubscriptionRec | null = null;
    let invoice: InvoiceRec | null = null;
    if (s.mode === "subscription") {
      const data = s.subscription_data ?? {};
      const created = this.createSubscription({
        customer: customer.id,
        items: s.line_items.map((li) => ({ price: li.price, quantity: li.quantity })),
        metadata: (data.metadata as Metadata | undefined) ?? {},
        description: (data.description as string | undefined) ?? null,
        discounts: s.discounts,
        checkoutSession: s.id,
      });
      subscription = created.object;
      invoice = this.find("invoice", subscription.latest_invoice!) ?? null;
      events.push(...created.events);
      s.subscription = subscription.id;
      s.invoice = invoice?.id ?? null;
    } else {
      for (const d of s.discounts) if (d.coupon) this.redeem(d.coupon, d.promotion_code);
    }
    s.status = "complete";
    s.payment_status = s.amount_total === 0 && s.mode !== "payment" ? "no_payment_required" : "paid";
    events.push(this.emit("checkout.session.completed", "checkout.session", s));
    return { object: s, events, subscription, invoice };
  }

  private renderPortalSession(p: PortalSessionRec): JsonObject {
    return {
      id: p.id,
      object: "billing_portal.session",
      configuration: p.configuration,
      created: p.created,
      customer: p.customer,
      customer_account: null,
      flow: p.flow,
      livemode: false,
      locale: p.locale,
      on_behalf_of: null,
      return_url: p.return_url,
      url: p.url,
    };
  }

  createPortalSession(params: JsonObject): Outcome<PortalSessionRec> {
    const customer = this.liveCustomer(String(params.customer), "customer");
    const id = randomId("bps_");
    const p = this.put("billing_portal.session", {
      id,
      created: this.now(),
      customer: customer.id,
      return_url: (params.return_url as string | undefined) ?? null,
      url: `${this.options.origin}/p/session/${id}`,
      configuration: (params.configuration as string | undefined) ?? "bpc_fake_default",
      locale: (params.locale as string | undefined) ?? null,
      flow: (params.flow_data as Json | undefined) ?? null,
    });
    return { object: p, events: [] };
  }

  // -------------------------------------------------------------------------------------------------------
  // Subscriptions

  private renderItem(sub: SubscriptionRec, item: ItemRec): JsonObject {
    const price = this.find("price", item.price)!;
    return {
      id: item.id,
      object: "subscription_item",
      billing_thresholds: null,
      created: item.created,
      current_period_end: item.current_period_end,
      current_period_start: item.current_period_start,
      current_trial: null,
      discounts: [],
      metadata: { ...item.metadata },
      plan: this.renderPlan(price),
      price: this.renderPrice(price),
      quantity: item.quantity,
      subscription: sub.id,
      tax_rates: [],
    };
  }

  private renderSubscription(s: SubscriptionRec, ctx: RenderContext): JsonObject {
    const json: JsonObject = {
      id: s.id,
      object: "subscription",
      application: null,
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: s.billing_cycle_anchor,
      billing_cycle_anchor_config: null,
      billing_mode: { flexible: null, type: "classic" },
      billing_schedules: [],
      billing_thresholds: null,
      cancel_at: s.cancel_at,
      cancel_at_period_end: s.cancel_at_period_end,
      canceled_at: s.canceled_at,
      cancellation_details: { ...s.cancellation_details, feedback_option: null },
      collection_method: s.collection_method,
      created: s.created,
      currency: s.currency,
      customer: s.customer,
      customer_account: null,
      days_until_due: null,
      default_payment_method: s.default_payment_method,
      default_source: null,
      default_tax_rates: [],
      description: s.description,
      discounts: [...s.discounts],
      ended_at: s.ended_at,
      invoice_settings: {
        account_tax_ids: null,
        custom_fields: null,
        description: null,
        footer: null,
        issuer: { type: "self" },
      },
      items: this.listJson(
        s.items.map((item) => this.renderItem(s, item)),
        false,
        `/v1/subscription_items?subscription=${s.id}`,
        s.items.length,
      ),
      latest_invoice: s.latest_invoice,
      livemode: false,
      managed_payments: null,
      metadata: { ...s.metadata },
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: {
        payment_method_options: null,
        payment_method_types: null,
        save_default_payment_method: "off",
      },
      pending_invoice_item_interval: null,
      pending_setup_intent: null,
      pending_update: null,
      schedule: s.schedule,
      start_date: s.start_date,
      status: s.status,
      test_clock: null,
      transfer_data: null,
      trial_end: s.trial_end,
      trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
      trial_start: s.trial_start,
    };
    if (ctx.version < PERIODS_ON_ITEMS && s.items[0]) {
      json.current_period_start = s.items[0].current_period_start;
      json.current_period_end = s.items[0].current_period_end;
      if (s.items.length === 1) {
        const price = this.find("price", s.items[0].price)!;
        json.plan = this.renderPlan(price);
        json.quantity = s.items[0].quantity;
      }
    }
    return json;
  }

  private checkItemPrices(prices: PriceRec[], param: string): void {
    for (const p of prices) {
      if (!p.recurring)
        throw paramError(
          `The price \`${p.id}\` is a \`one_time\` price. Only recurring prices can be used on a subscription.`,
          param,
        );
    }
    const first = prices[0];
    for (const p of prices.slice(1)) {
      if (p.currency !== first.currency)
        throw paramError(
          "Currency and interval fields must match across all plans on this subscription. Found mismatch in currency field.",
          param,
        );
      if (
        p.recurring!.interval !== first.recurring!.interval ||
        p.recurring!.interval_count !== first.recurring!.interval_count
      ) {
        throw paramError(
          "Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.",
          param,
        );
      }
    }
  }

  /** Creates an active subscription with its first (paid) invoice, starting now. */
  createSubscription(params: {
    customer: string;
    items: { price: string; quantity?: number; metadata?: Metadata }[];
    metadata?: Metadata;
    description?: string | null;
    discounts?: { coupon: string | null; promotion_code: string | null }[];
    checkoutSession?: string;
    cancel_at_period_end?: boolean;
    paymentFails?: boolean;
  }): Outcome<SubscriptionRec> {
    const customer = this.liveCustomer(params.customer, "customer");
    if (params.items.length === 0) throw paramError("Missing required param: items.", "items", "parameter_missing");
    const prices = params.items.map((item, i) => this.get("price", item.price, `items[${i}][price]`));
    this.checkItemPrices(prices, "items");
    const seen = new Set<string>();
    for (const p of prices) {
      if (seen.has(p.id))
        throw paramError(`Cannot add multiple subscription items with the same price: ${p.id}`, "items");
      seen.add(p.id);
    }
    const now = this.now();
    const end = addInterval(now, prices[0].recurring!.interval, prices[0].recurring!.interval_count);
    const id = randomId("sub_");
    const sub = this.put("subscription", {
      id,
      created: now,
      customer: customer.id,
      status: "active",
      items: params.items.map((item) => ({
        id: randomId("si_", 14),
        created: now,
        price: item.price,
        quantity: item.quantity ?? 1,
        metadata: item.metadata ?? {},
        current_period_start: now,
        current_period_end: end,
      })),
      cancel_at: params.cancel_at_period_end ? end : null,
      cancel_at_period_end: params.cancel_at_period_end ?? false,
      canceled_at: params.cancel_at_period_end ? now : null,
      ended_at: null,
      cancellation_details: {
        comment: null,
        feedback: null,
        reason: params.cancel_at_period_end ? "cancellation_requested" : null,
      },
      metadata: params.metadata ?? {},
      latest_invoice: null,
      schedule: null,
      start_date: now,
      billing_cycle_anchor: now,
      currency: prices[0].currency,
      discounts: [],
      description: params.description ?? null,
      default_payment_method: null,
      collection_method: "charge_automatically",
      trial_start: null,
      trial_end: null,
      pending_prorations: [],
    });
    for (const d of params.discounts ?? []) {
      if (!d.coupon) continue;
      const coupon = this.find("coupon", d.coupon)!;
      const discount = this.put("discount", {
        id: randomId("di_"),
        coupon: d.coupon,
        promotion_code: d.promotion_code,
        start: now,
        end:
          coupon.duration === "repeating" && coupon.duration_in_months
            ? addInterval(now, "month", coupon.duration_in_months)
            : null,
        customer: customer.id,
        subscription: sub.id,
        checkout_session: params.checkoutSession ?? null,
        invoice: null,
      });
      sub.discounts.push(discount.id);
      this.redeem(d.coupon, d.promotion_code);
    }
    const invoice = this.createInvoiceForPeriod(
      sub,
      "subscription_create",
      { start: now, end },
      Boolean(params.paymentFails),
    );
    if (params.paymentFails && invoice.status !== "paid") sub.status = "incomplete";
    const events = [
      this.emit("customer.subscription.created", "subscription", sub),
      ...this.drainInvoiceEvents(invoice),
    ];
    return { object: sub, events };
  }

  updateSubscription(id: string, params: JsonObject): Outcome<SubscriptionRec> {
    const sub = this.get("subscription", id);
    if (sub.status === "canceled" || sub.status === "incomplete_expired") {
      const allowed = Object.keys(params).every((k) => ["metadata", "cancellation_details", "expand"].includes(k));
      if (!allowed) throw paramError(`A canceled subscription can only update its cancellation_details and metadata.`);
    }
    const touchesCancel = "cancel_at_period_end" in params || "cancel_at" in params;
    if (touchesCancel && sub.schedule) {
      throw paramError(
        `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
      );
    }
    if ("cancel_at_period_end" in params && "cancel_at" in params && params.cancel_at !== null) {
      throw paramError(
        "You may only specify one of these parameters: cancel_at, cancel_at_period_end.",
        "cancel_at",
        "parameters_exclusive",
      );
    }
    const events: JsonObject[] = [];
    const proration = (params.proration_behavior as string | undefined) ?? "create_prorations";
    const made: { invoice: InvoiceRec | null } = { invoice: null };
    const event = this.changed("subscription", sub, "customer.subscription.updated", () => {
      if (params.items)
        made.invoice = this.applyItemChanges(
          sub,
          params.items as JsonObject[],
          proration,
          (params.proration_date as number | undefined) ?? this.now(),
        );
      if (params.billing_cycle_anchor === "now") this.resetPeriod(sub, this.now(), true);
      if ("cancel_at_period_end" in params) {
        sub.cancel_at_period_end = Boolean(params.cancel_at_period_end);
        sub.cancel_at = sub.cancel_at_period_end ? sub.items[0].current_period_end : null;
        sub.canceled_at = sub.cancel_at_period_end ? this.now() : null;
        sub.cancellation_details = {
          comment: null,
          feedback: null,
          reason: sub.cancel_at_period_end ? "cancellation_requested" : null,
        };
      }
      if ("cancel_at" in params) {
        const at =
          params.cancel_at === "min_period_end"
            ? Math.min(...sub.items.map((i) => i.current_period_end))
            : (params.cancel_at as number | null);
        sub.cancel_at = at;
        sub.cancel_at_period_end = at !== null && at === sub.items[0].current_period_end;
        sub.canceled_at = at === null ? null : this.now();
        sub.cancellation_details = {
          comment: null,
          feedback: null,
          reason: at === null ? null : "cancellation_requested",
        };
      }
      if (params.cancellation_details) {
        const details = params.cancellation_details as JsonObject;
        sub.cancellation_details = {
          ...sub.cancellation_details,
          comment: (details.comment as string | null) ?? null,
          feedback: (details.feedback as string | null) ?? null,
        };
      }
      if ("metadata" in params) sub.metadata = mergeMetadata(sub.metadata, params.metadata);
      if ("description" in params) sub.description = (params.description as string | null) ?? null;
      if ("default_payment_method" in params)
        sub.default_payment_method = (params.default_payment_method as string | null) ?? null;
    });
    if (made.invoice) events.push(...this.drainInvoiceEvents(made.invoice));
    if (event) events.push(event);
    return { object: sub, events };
  }

  private invoiceEvents = new Map<string, JsonObject[]>();
  private drainInvoiceEvents(invoice: InvoiceRec): JsonObject[] {
    const out = this.invoiceEvents.get(invoice.id) ?? [];
    this.invoiceEvents.delete(invoice.id);
    return out;
  }

  /** `items` of a subscription update: with `id` an existing item changes (or is deleted), without one an item is added. */
  private applyItemChanges(
    sub: SubscriptionRec,
    changes: JsonObject[],
    proration: string,
    prorationDate: number,
  ): InvoiceRec | null {
    const before = sub.items.map((item) => ({ ...item }));
    const next = sub.items.map((item) => ({ ...item }));
    changes.forEach((change, i) => {
      const price = change.price ? this.get("price", String(change.price), `items[${i}][price]`) : null;
      if (change.id) {
        const at = next.findIndex((item) => item.id === change.id);
        if (at < 0) throw missingResource("subscription_item", String(change.id), `items[${i}][id]`, 400);
        if (change.deleted === true) {
          next.splice(at, 1);
          return;
        }
        if (price) next[at].price = price.id;
        if (change.quantity !== undefined) next[at].quantity = Number(change.quantity);
        if (change.metadata !== undefined) next[at].metadata = mergeMetadata(next[at].metadata, change.metadata);
      } else {
        if (!price)
          throw paramError(`Missing required param: items[${i}][price].`, `items[${i}][price]`, "parameter_missing");
        if (next.some((item) => item.price === price.id))
          throw paramError(
            `Cannot add multiple subscription items with the same price: ${price.id}`,
            `items[${i}][price]`,
          );
        next.push({
          id: randomId("si_", 14),
          created: this.now(),
          price: price.id,
          quantity: (change.quantity as number | undefined) ?? 1,
          metadata: (change.metadata as Metadata | undefined) ?? {},
          current_period_start: sub.items[0].current_period_start,
          current_period_end: sub.items[0].current_period_end,
        });
      }
    });
    if (next.length === 0)
      throw paramError(
        "A subscription must have at least one active plan. To cancel a subscription, send a DELETE request to /v1/subscriptions/{id}.",
        "items",
      );
    this.checkItemPrices(
      next.map((item) => this.find("price", item.price)!),
      "items",
    );
    sub.items = next;
    if (proration === "none") return null;
    // Prorations: credit for the unused time on what was there, charge for the rest of the period on what is there now.
    const { current_period_start: start, current_period_end: end } = sub.items[0];
    const fraction = end > start ? Math.max(0, Math.min(1, (end - prorationDate) / (end - start))) : 0;
    const lines: ProrationRec[] = [];
    const amountOf = (item: ItemRec) => (this.find("price", item.price)!.unit_amount ?? 0) * item.quantity;
    for (const old of before) {
      const now = next.find((item) => item.id === old.id);
      if (now && now.price === old.price && now.quantity === old.quantity) continue;
      const product = this.find("product", this.find("price", old.price)!.product)?.name ?? "item";
      lines.push({
        id: randomId("il_"),
        price: old.price,
        amount: -Math.round(amountOf(old) * fraction),
        description: `Unused time on ${old.quantity} × ${product}`,
        period: { start: prorationDate, end },
        subscription_item: old.id,
      });
    }
    for (const item of next) {
      const old = before.find((b) => b.id === item.id);
      if (old && old.price === item.price && old.quantity === item.quantity) continue;
      const product = this.find("product", this.find("price", item.price)!.product)?.name ?? "item";
      lines.push({
        id: randomId("il_"),
        price: item.price,
        amount: Math.round(amountOf(item) * fraction),
        description: `Remaining time on ${item.quantity} × ${product}`,
        period: { start: prorationDate, end },
        subscription_item: item.id,
      });
    }
    if (lines.length === 0) return null;
    if (proration === "always_invoice") {
      const invoice = this.createInvoice(
        sub,
        "subscription_update",
        lines.map((l) => ({ ...l, quantity: 1, proration: true })),
        { start: prorationDate, end },
        false,
      );
      return invoice;
    }
    sub.pending_prorations.push(...lines);
    return null;
  }

  private resetPeriod(sub: SubscriptionRec, at: number, anchor: boolean): void {
    const price = this.find("price", sub.items[0].price)!;
    const end = addInterval(at, price.recurring!.interval, price.recurring!.interval_count);
    for (const item of sub.items) {
      item.current_period_start = at;
      item.current_period_end = end;
    }
    if (anchor) sub.billing_cycle_anchor = at;
  }

  cancelSubscription(id: string, params: JsonObject): Outcome<SubscriptionRec> {
    const sub = this.get("subscription", id);
    if (sub.status === "canceled") throw missingResource("subscription", id, "id");
    const now = this.now();
    const events: JsonObject[] = [];
    if (sub.schedule) {
      const schedule = this.find("subscription_schedule", sub.schedule)!;
      schedule.status = "canceled";
      schedule.canceled_at = now;
      events.push(this.emit("subscription_schedule.canceled", "subscription_schedule", schedule));
    }
    sub.status = "canceled";
    sub.canceled_at ??= now;
    sub.ended_at = now;
    const details = (params.cancellation_details as JsonObject | undefined) ?? {};
    sub.cancellation_details = {
      comment: (details.comment as string | null) ?? sub.cancellation_details.comment,
      feedback: (details.feedback as string | null) ?? sub.cancellation_details.feedback,
      reason: sub.cancellation_details.reason ?? "cancellation_requested",
    };
    sub.pending_prorations = [];
    events.push(this.emit("customer.subscription.deleted", "subscription", sub));
    return { object: sub, events };
  }

  /**
   * The end of the current billing period, as if the clock had just reached it: the subscription's timeline
   * (periods, cancel_at, schedule phases) is moved so that the period ends now, then Stripe's renewal runs —
   * a scheduled cancel ends the subscription (customer.subscription.deleted); a schedule moves to its next
   * phase (or releases / cancels at its end); otherwise a new period starts with a new invoice, paid unless
   * `paymentFails` (then it stays open and the subscription goes `past_due`).
   */
  advancePeriod(
    id: string,
    options: { paymentFails?: boolean } = {},
  ): Outcome<SubscriptionRec> & { invoice: InvoiceRec | null } {
    const sub = this.get("subscription", id);
    if (sub.status === "canceled" || sub.status === "incomplete_expired")
      throw new Error(`subscription ${id} is ${sub.status}`);
    const now = this.now();
    const delta = now - sub.items[0].current_period_end;
    for (const item of sub.items) {
      item.current_period_start += delta;
      item.current_period_end += delta;
    }
    sub.billing_cycle_anchor += delta;
    if (sub.cancel_at !== null) sub.cancel_at += delta;
    const schedule = sub.schedule ? this.find("subscription_schedule", sub.schedule)! : null;
    for (const phase of schedule?.phases ?? []) {
      phase.start_date += delta;
      phase.end_date += delta;
    }
    if (sub.cancel_at !== null && sub.cancel_at <= now) {
      return { ...this.cancelSubscription(sub.id, {}), invoice: null };
    }
    const events: JsonObject[] = [];
    const phase = schedule?.phases.find((p) => p.start_date <= now && now < p.end_date);
    if (schedule && !phase && schedule.end_behavior === "cancel") {
      schedule.status = "completed";
      schedule.completed_at = now;
      events.push(this.emit("subscription_schedule.completed", "subscription_schedule", schedule));
      sub.schedule = null;
      const canceled = this.cancelSubscription(sub.id, {});
      sub.schedule = schedule.id;
      return { object: sub, events: [...events, ...canceled.events], invoice: null };
    }
    const made: { invoice: InvoiceRec | null } = { invoice: null };
    const event = this.changed("subscription", sub, "customer.subscription.updated", () => {
      if (schedule && phase) {
        sub.items = phase.items.map((item) => {
          const existing = sub.items.find((i) => i.price === item.price);
          return {
            id: existing?.id ?? randomId("si_", 14),
            created: existing?.created ?? now,
            price: item.price,
            quantity: item.quantity,
            metadata: { ...item.metadata },
            current_period_start: now,
            current_period_end: now,
          };
        });
        if (Object.keys(phase.metadata).length > 0) sub.metadata = { ...phase.metadata };
      } else if (schedule) {
        schedule.status = "released";
        schedule.released_at = now;
        schedule.released_subscription = sub.id;
        schedule.subscription = null;
        sub.schedule = null;
        events.push(this.emit("subscription_schedule.released", "subscription_schedule", schedule));
      }
      this.resetPeriod(sub, now, false);
      made.invoice = this.createInvoiceForPeriod(
        sub,
        "subscription_cycle",
        { start: now, end: sub.items[0].current_period_end },
        Boolean(options.paymentFails),
      );
      if (options.paymentFails) sub.status = "past_due";
      else if (sub.status === "past_due") sub.status = "active";
    });
    if (made.invoice) events.push(...this.drainInvoiceEvents(made.invoice));
    if (event) events.push(event);
    return { object: sub, events, invoice: made.invoice };
  }

  /**
   * A failed payment: when the latest invoice is open, another attempt fails; otherwise the renewal at the
   * end of the period fails (advancePeriod with paymentFails), leaving an open invoice and a `past_due`
   * subscription. Emits invoice.payment_failed (and customer.subscription.updated when the status changes).
   */
  failPayment(id: string): Outcome<SubscriptionRec> & { invoice: InvoiceRec | null } {
    const sub = this.get("subscription", id);
    const latest = sub.latest_invoice ? this.find("invoice", sub.latest_invoice) : undefined;
    if (latest && latest.status === "open") {
      latest.attempted = true;
      latest.attempt_count += 1;
      latest.next_payment_attempt = this.now() + 3 * 86_400;
      const events = [this.emit("invoice.payment_failed", "invoice", latest)];
      const event = this.changed("subscription", sub, "customer.subscription.updated", () => {
        if (sub.status === "active") sub.status = "past_due";
      });
      if (event) events.push(event);
      return { object: sub, events, invoice: latest };
    }
    return this.advancePeriod(id, { paymentFails: true });
  }

  // -------------------------------------------------------------------------------------------------------
  // Subscription schedules

  private renderSchedule(s: ScheduleRec): JsonObject {
    const now = this.now();
    const current =
      s.status === "active" ? (s.phases.find((p) => p.start_date <= now && now < p.end_date) ?? null) : null;
    return {
      id: s.id,
      object: "subscription_schedule",
      application: null,
      billing_mode: { flexible: null, type: "classic" },
      canceled_at: s.canceled_at,
      completed_at: s.completed_at,
      created: s.created,
      current_phase: current ? { end_date: current.end_date, start_date: current.start_date } : null,
      customer: s.customer,
      customer_account: null,
      default_settings: {
        application_fee_percent: null,
        automatic_tax: { disabled_reason: null, enabled: false, liability: null },
        billing_cycle_anchor: "automatic",
        billing_thresholds: null,
        collection_method: "charge_automatically",
        default_payment_method: null,
        description: null,
        invoice_settings: {
          account_tax_ids: null,
          custom_fields: null,
          days_until_due: null,
          description: null,
          footer: null,
          issuer: { type: "self" },
        },
        on_behalf_of: null,
        transfer_data: null,
      },
      end_behavior: s.end_behavior,
      livemode: false,
      metadata: { ...s.metadata },
      pause_schedules: [],
      phases: s.phases.map((p) => ({
        add_invoice_items: [],
        application_fee_percent: null,
        billing_cycle_anchor: null,
        billing_thresholds: null,
        collection_method: null,
        currency: p.currency,
        default_payment_method: null,
        default_tax_rates: [],
        description: p.description,
        discounts: [],
        end_date: p.end_date,
        invoice_settings: null,
        items: p.items.map((item) => ({
          billing_thresholds: null,
          discounts: [],
          metadata: { ...item.metadata },
          plan: item.price,
          price: item.price,
          quantity: item.quantity,
          tax_rates: [],
        })),
        metadata: { ...p.metadata },
        on_behalf_of: null,
        proration_behavior: p.proration_behavior,
        start_date: p.start_date,
        transfer_data: null,
        trial_end: null,
      })),
      released_at: s.released_at,
      released_subscription: s.released_subscription,
      status: s.status,
      subscription: s.subscription,
      test_clock: null,
    };
  }

  createSchedule(params: JsonObject): Outcome<ScheduleRec> {
    const now = this.now();
    if (params.from_subscription) {
      for (const key of ["phases", "customer", "start_date", "end_behavior", "default_settings"]) {
        if (key in params) throw paramError(`You cannot set \`${key}\` if \`from_subscription\` is set.`, key);
      }
      const sub = this.get("subscription", String(params.from_subscription), "from_subscription");
      if (sub.status === "canceled")
        throw paramError("You cannot migrate a canceled subscription to a subscription schedule.", "from_subscription");
      if (sub.schedule)
        throw paramError(
          `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
          "from_subscription",
        );
      const schedule = this.put("subscription_schedule", {
        id: randomId("sub_sched_"),
        created: now,
        customer: sub.customer,
        subscription: sub.id,
        status: "active",
        phases: [
          {
            start_date: sub.items[0].current_period_start,
            end_date: sub.items[0].current_period_end,
            items: sub.items.map((item) => ({
              price: item.price,
              quantity: item.quantity,
              metadata: { ...item.metadata },
            })),
            proration_behavior: "create_prorations",
            metadata: {},
            currency: sub.currency,
            description: null,
          },
        ],
        end_behavior: "release",
        released_at: null,
        released_subscription: null,
        canceled_at: null,
        completed_at: null,
        metadata: (params.metadata as Metadata | undefined) ?? {},
      });
      const events = [this.emit("subscription_schedule.created", "subscription_schedule", schedule)];
      const event = this.changed("subscription", sub, "customer.subscription.updated", () => {
        sub.schedule = schedule.id;
      });
      if (event) events.push(event);
      return { object: schedule, events };
    }
    if (!params.customer) throw paramError("Missing required param: customer.", "customer", "parameter_missing");
    const customer = this.liveCustomer(String(params.customer), "customer");
    const phasesParam = params.phases as JsonObject[] | undefined;
    if (!phasesParam || phasesParam.length === 0)
      throw paramError("Missing required param: phases.", "phases", "parameter_missing");
    const start = params.start_date === undefined || params.start_date === "now" ? now : Number(params.start_date);
    const phases = this.buildPhases(phasesParam, start, null);
    const schedule = this.put("subscription_schedule", {
      id: randomId("sub_sched_"),
      created: now,
      customer: customer.id,
      subscription: null,
      status: start <= now ? "active" : "not_started",
      phases,
      end_behavior: (params.end_behavior as string | undefined) ?? "release",
      released_at: null,
      released_subscription: null,
      canceled_at: null,
      completed_at: null,
      metadata: (params.metadata as Metadata | undefined) ?? {},
    });
    const events = [this.emit("subscription_schedule.created", "subscription_schedule", schedule)];
    if (schedule.status === "active") {
      const created = this.createSubscription({
        customer: customer.id,
        items: phases[0].items,
        metadata: phases[0].metadata,
      });
      created.object.schedule = schedule.id;
      for (const item of created.object.items) {
        item.current_period_start = phases[0].start_date;
        item.current_period_end = Math.min(item.current_period_end, phases[0].end_date);
      }
      schedule.subscription = created.object.id;
      events.push(...created.events);
    }
    return { object: schedule, events };
  }

  /** Phase params → phases: contiguous, each ending at end_date, after `duration`, or after one billing interval. */
  private buildPhases(raw: JsonObject[], start: number, current: PhaseRec | null): PhaseRec[] {
    const phases: PhaseRec[] = [];
    let cursor = start;
    raw.forEach((p, i) => {
      const param = `phases[${i}]`;
      const items = p.items as JsonObject[] | undefined;
      if (!items || items.length === 0)
        throw paramError(`Missing required param: ${param}[items].`, `${param}[items]`, "parameter_missing");
      const phaseItems = items.map((item, j) => {
        if (!item.price)
          throw paramError(
            `Missing required param: ${param}[items][${j}][price].`,
            `${param}[items][${j}][price]`,
            "parameter_missing",
          );
        const price = this.get("price", String(item.price), `${param}[items][${j}][price]`);
        return {
          price: price.id,
          quantity: (item.quantity as number | undefined) ?? 1,
          metadata: (item.metadata as Metadata | undefined) ?? {},
        };
      });
      const prices = phaseItems.map((item) => this.find("price", item.price)!);
      this.checkItemPrices(prices, `${param}[items]`);
      let phaseStart = cursor;
      if (p.start_date !== undefined) {
        phaseStart = p.start_date === "now" ? this.now() : Number(p.start_date);
        if (i === 0 && current && phaseStart !== current.start_date) {
          throw paramError("You can not modify the start date of the current phase.", `${param}[start_date]`);
        }
        if (i > 0 && phaseStart !== cursor)
          throw paramError(
            `The start_date of phase ${i} must be the end_date of the previous phase.`,
            `${param}[start_date]`,
          );
      }
      let end: number;
      if (p.end_date !== undefined) end = p.end_date === "now" ? this.now() : Number(p.end_date);
      else if (p.duration !== undefined) {
        const duration = p.duration as JsonObject;
        end = addInterval(
          phaseStart,
          duration.interval as Recurring["interval"],
          (duration.interval_count as number | undefined) ?? 1,
        );
      } else if (p.iterations !== undefined) {
        end = addInterval(
          phaseStart,
          prices[0].recurring!.interval,
          prices[0].recurring!.interval_count * Number(p.iterations),
        );
      } else end = addInterval(phaseStart, prices[0].recurring!.interval, prices[0].recurring!.interval_count);
      if (end <= phaseStart) throw paramError("The phase end_date must be after its start_date.", `${param}[end_date]`);
      phases.push({
        start_date: phaseStart,
        end_date: end,
        items: phaseItems,
        proration_behavior: (p.proration_behavior as string | undefined) ?? "create_prorations",
        metadata: (p.metadata as Metadata | undefined) ?? {},
        currency: prices[0].currency,
        description: (p.description as string | undefined) ?? null,
      });
      cursor = end;
    });
    return phases;
  }

  updateSchedule(id: string, params: JsonObject): Outcome<ScheduleRec> {
    const schedule = this.get("subscription_schedule", id);
    if (schedule.status !== "active" && schedule.status !== "not_started") {
      throw paramError(
        `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`,
      );
    }
    const events: JsonObject[] = [];
    const event = this.changed("subscription_schedule", schedule, "subscription_schedule.updated", () => {
      if (params.phases) {
        const now = this.now();
        const current = schedule.phases.find((p) => p.start_date <= now && now < p.end_date) ?? null;
        const start = current?.start_date ?? schedule.phases[0]?.start_date ?? now;
        const phases = this.buildPhases(
          params.phases as JsonObject[],
          start,
          schedule.status === "active" ? current : null,
        );
        schedule.phases = phases;
        const sub = schedule.subscription ? this.find("subscription", schedule.subscription) : undefined;
        const nowPhase = phases.find((p) => p.start_date <= now && now < p.end_date);
        if (sub && nowPhase) {
          const same =
            nowPhase.items.length === sub.items.length &&
            nowPhase.items.every((item) =>
              sub.items.some((s) => s.price === item.price && s.quantity === item.quantity),
            );
          if (!same) {
            const changes: JsonObject[] = [
              ...sub.items
                .filter((s) => !nowPhase.items.some((item) => item.price === s.price))
                .map((s) => ({ id: s.id, deleted: true })),
              ...nowPhase.items.map((item) => {
                const existing = sub.items.find((s) => s.price === item.price);
                return (
                  existing
                    ? { id: existing.id, quantity: item.quantity }
                    : { price: item.price, quantity: item.quantity }
                ) as JsonObject;
              }),
            ];
            const update = this.updateSubscriptionItemsForSchedule(
              sub,
              changes,
              (params.proration_behavior as string | undefined) ?? nowPhase.proration_behavior,
            );
            events.push(...update);
          }
        }
      }
      if (params.end_behavior) schedule.end_behavior = String(params.end_behavior);
      if ("metadata" in params) schedule.metadata = mergeMetadata(schedule.metadata, params.metadata);
    });
    return { object: schedule, events: event ? [event, ...events] : events };
  }

  private updateSubscriptionItemsForSchedule(
    sub: SubscriptionRec,
    changes: JsonObject[],
    proration: string,
  ): JsonObject[] {
    const events: JsonObject[] = [];
    const made: { invoice: InvoiceRec | null } = { invoice: null };
    const event = this.changed("subscription", sub, "customer.subscription.updated", () => {
      made.invoice = this.applyItemChanges(sub, changes, proration, this.now());
    });
    if (made.invoice) events.push(...this.drainInvoiceEvents(made.invoice));
    if (event) events.push(event);
    return events;
  }

  releaseSchedule(id: string, params: JsonObject): Outcome<ScheduleRec> {
    const schedule = this.get("subscription_schedule", id);
    if (schedule.status !== "active" && schedule.status !== "not_started") {
      throw paramError(
        `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`,
      );
    }
    const sub = schedule.subscription ? this.find("subscription", schedule.subscription) : undefined;
    schedule.status = "released";
    schedule.released_at = this.now();
    schedule.released_subscription = schedule.subscription;
    schedule.subscription = null;
    const events = [this.emit("subscription_schedule.released", "subscription_schedule", schedule)];
    if (sub) {
      const event = this.changed("subscription", sub, "customer.subscription.updated", () => {
        sub.schedule = null;
        if (params.preserve_cancel_date === false) {
          sub.cancel_at = null;
          sub.cancel_at_period_end = false;
        }
      });
      if (event) events.push(event);
    }
    return { object: schedule, events };
  }

  cancelSchedule(id: string): Outcome<ScheduleRec> {
    const schedule = this.get("subscription_schedule", id);
    if (schedule.status !== "active" && schedule.status !== "not_started") {
      throw paramError(
        `You cannot cancel a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
    const events: JsonObject[] = [];
    if (schedule.subscription) {
      const sub = this.find("subscription", schedule.subscription)!;
      sub.schedule = null;
      events.push(...this.cancelSubscription(sub.id, {}).events);
      sub.schedule = schedule.id;
    }
    schedule.status = "canceled";
    schedule.canceled_at = this.now();
    events.unshift(this.emit("subscription_schedule.canceled", "subscription_schedule", schedule));
    return { object: schedule, events };
  }

  // -------------------------------------------------------------------------------------------------------
  // Invoices

  private renderInvoice(i: InvoiceRec, ctx: RenderContext): JsonObject {
    const amountDue = i.total;
    const json: JsonObject = {
      id: i.id,
      object: "invoice",
      account_country: "US",
      account_name: "Verbatim (fake Stripe)",
      account_tax_ids: null,
      amount_due: amountDue,
      amount_overpaid: 0,
      amount_paid: i.amount_paid,
      amount_remaining: i.status === "paid" ? 0 : amountDue - i.amount_paid,
      amount_shipping: 0,
      application: null,
      attempt_count: i.attempt_count,
      attempted: i.attempted,
      auto_advance: i.status === "open",
      automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
      automatically_finalizes_at: null,
      billing_reason: i.billing_reason,
      collection_method: "charge_automatically",
      created: i.created,
      currency: i.currency,
      custom_fields: null,
      customer: i.customer,
      customer_account: null,
      customer_address: null,
      customer_email: this.find("customer", i.customer)?.email ?? null,
      customer_name: this.find("customer", i.customer)?.name ?? null,
      customer_phone: null,
      customer_shipping: null,
      customer_tax_exempt: "none",
      customer_tax_ids: [],
      default_payment_method: null,
      default_source: null,
      default_tax_rates: [],
      description: null,
      discounts: [...i.discounts],
      due_date: null,
      effective_at: i.finalized_at,
      ending_balance: i.status === "draft" ? null : 0,
      footer: null,
      from_invoice: null,
      hosted_invoice_url: `${this.options.origin}/i/${i.id}`,
      invoice_pdf: `${this.options.origin}/i/${i.id}/pdf`,
      issuer: { type: "self" },
      last_finalization_error: null,
      latest_revision: null,
      lines: this.listJson(
        i.lines.map((line) => this.renderInvoiceLine(i, line)),
        false,
        `/v1/invoices/${i.id}/lines`,
        i.lines.length,
      ),
      livemode: false,
      metadata: { ...i.metadata },
      next_payment_attempt: i.next_payment_attempt,
      number: i.number,
      on_behalf_of: null,
      parent: i.subscription
        ? {
            quote_details: null,
            subscription_details: { metadata: i.subscription_metadata ?? {}, subscription: i.subscription },
            type: "subscription_details",
          }
        : null,
      payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
      period_end: i.period_end,
      period_start: i.period_start,
      post_payment_credit_notes_amount: 0,
      pre_payment_credit_notes_amount: 0,
      receipt_number: null,
      rendering: null,
      shipping_cost: null,
      shipping_details: null,
      starting_balance: 0,
      statement_descriptor: null,
      status: i.status,
      status_transitions: {
        finalized_at: i.finalized_at,
        marked_uncollectible_at: null,
        paid_at: i.paid_at,
        voided_at: null,
      },
      subtotal: i.subtotal,
      subtotal_excluding_tax: i.subtotal,
      test_clock: null,
      total: i.total,
      total_discount_amounts: i.discounts.map((d) => ({ amount: i.discount_amount, discount: d })),
      total_excluding_tax: i.total,
      total_pretax_credit_amounts: [],
      total_taxes: [],
      webhooks_delivered_at: i.created,
    };
    if (ctx.version < PERIODS_ON_ITEMS) json.subscription = i.subscription;
    return json;
  }

  private renderInvoiceLine(i: InvoiceRec, line: InvoiceLineRec): JsonObject {
    const price = this.find("price", line.price)!;
    return {
      id: line.id,
      object: "line_item",
      amount: line.amount,
      currency: i.currency,
      description: line.description,
      discount_amounts: [],
      discountable: !line.proration,
      discounts: [],
      invoice: i.id,
      livemode: false,
      metadata: {},
      parent: line.subscription_item
        ? {
            invoice_item_details: null,
            subscription_item_details: {
              invoice_item: line.proration ? randomId("ii_") : null,
              proration: line.proration,
              proration_details: { credited_items: null },
              subscription: i.subscription,
              subscription_item: line.subscription_item,
            },
            type: "subscription_item_details",
          }
        : null,
      period: { ...line.period },
      pretax_credit_amounts: [],
      pricing: {
        price_details: { price: price.id, product: price.product },
        type: "price_details",
        unit_amount_decimal: String(price.unit_amount ?? 0),
      },
      quantity: line.quantity,
      quantity_decimal: String(line.quantity),
      subscription: i.subscription,
      subtotal: line.amount,
      taxes: [],
    };
  }

  /** The invoice for a subscription's period (its items plus pending prorations, less its discounts). */
  private createInvoiceForPeriod(
    sub: SubscriptionRec,
    reason: string,
    period: { start: number; end: number },
    paymentFails: boolean,
  ): InvoiceRec {
    const lines: (Omit<InvoiceLineRec, "id"> & { id?: string })[] = [
      ...sub.pending_prorations.map((p) => ({ ...p, quantity: 1, proration: true })),
      ...sub.items.map((item) => {
        const price = this.find("price", item.price)!;
        const product = this.find("product", price.product)?.name ?? "item";
        return {
          amount: (price.unit_amount ?? 0) * item.quantity,
          price: price.id,
          quantity: item.quantity,
          description: `${item.quantity} × ${product}`,
          period,
          proration: false,
          subscription_item: item.id,
        };
      }),
    ];
    sub.pending_prorations = [];
    return this.createInvoice(sub, reason, lines, period, paymentFails);
  }

  private createInvoice(
    sub: SubscriptionRec,
    reason: string,
    rawLines: (Omit<InvoiceLineRec, "id"> & { id?: string })[],
    period: { start: number; end: number },
    paymentFails: boolean,
  ): InvoiceRec {
    const now = this.now();
    const lines: InvoiceLineRec[] = rawLines.map((l) => ({ ...l, id: l.id ?? randomId("il_") }));
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const activeDiscounts = sub.discounts
      .map((id) => this.find("discount", id)!)
      .filter((d) => {
        const coupon = this.find("coupon", d.coupon);
        if (!coupon) return false;
        if (coupon.duration === "once") return reason === "subscription_create";
        return d.end === null || d.end > now;
      });
    const discountable = lines.filter((l) => !l.proration).map((l) => ({ price: l.price, amount: l.amount }));
    const discountAmount = activeDiscounts.reduce(
      (sum, d) => sum + this.discountOn(d.coupon, discountable, sub.currency),
      0,
    );
    const total = Math.max(0, subtotal - discountAmount);
    this.invoiceNumber += 1;
    const invoice = this.put("invoice", {
      id: randomId("in_"),
      created: now,
      customer: sub.customer,
      subscription: sub.id,
      subscription_metadata: { ...sub.metadata },
      status: "open",
      attempted: false,
      attempt_count: 0,
      billing_reason: reason,
      currency: sub.currency,
      lines,
      subtotal,
      discount_amount: discountAmount,
      discounts: activeDiscounts.map((d) => d.id),
      total,
      amount_paid: 0,
      period_start: period.start,
      period_end: period.start,
      number: `FAKE-${String(this.invoiceNumber).padStart(4, "0")}`,
      next_payment_attempt: null,
      finalized_at: now,
      paid_at: null,
      metadata: {},
    });
    sub.latest_invoice = invoice.id;
    const events = [
      this.emit("invoice.created", "invoice", invoice),
      this.emit("invoice.finalized", "invoice", invoice),
    ];
    invoice.attempted = true;
    if (paymentFails && total > 0) {
      invoice.attempt_count = 1;
      invoice.next_payment_attempt = now + 3 * 86_400;
      events.push(this.emit("invoice.payment_failed", "invoice", invoice));
    } else {
      invoice.status = "paid";
      invoice.attempt_count = total > 0 ? 1 : 0;
      invoice.amount_paid = total;
      invoice.paid_at = now;
      events.push(
        this.emit("invoice.paid", "invoice", invoice),
        this.emit("invoice.payment_succeeded", "invoice", invoice),
      );
    }
    this.invoiceEvents.set(invoice.id, events);
    return invoice;
  }

  /** POST /v1/invoices/:id/pay: the open invoice is paid; a past_due subscription becomes active again. */
  payInvoice(id: string, params: JsonObject): Outcome<InvoiceRec> {
    const invoice = this.get("invoice", id);
    if (invoice.status === "paid")
      throw paramError("Invoice is already paid", undefined, "invoice_already_paid" as string);
    if (invoice.status !== "open")
      throw paramError(
        `You can only pay an invoice that is \`open\`. This invoice is \`${invoice.status}\`.`,
        undefined,
        "invoice_not_editable",
      );
    const now = this.now();
    invoice.status = "paid";
    invoice.attempted = true;
    if (!params.paid_out_of_band) invoice.attempt_count += 1;
    invoice.amount_paid = invoice.total;
    invoice.paid_at = now;
    invoice.next_payment_attempt = null;
    const events = [
      this.emit("invoice.paid", "invoice", invoice),
      this.emit("invoice.payment_succeeded", "invoice", invoice),
    ];
    const sub = invoice.subscription ? this.find("subscription", invoice.subscription) : undefined;
    if (sub && (sub.status === "past_due" || sub.status === "incomplete" || sub.status === "unpaid")) {
      const event = this.changed("subscription", sub, "customer.subscription.updated", () => {
        sub.status = "active";
      });
      if (event) events.push(event);
    }
    return { object: invoice, events };
  }
}

/** Metadata updates merge key by key; an empty value removes a key; `metadata=""` clears all. */
export function mergeMetadata(current: Metadata, update: Json | undefined): Metadata {
  if (update === null || update === undefined) return {};
  const next = { ...current };
  const entries = Object.entries(update as JsonObject);
  if (entries.length === 0) return {};
  for (const [key, value] of entries) {
    if (value === "" || value === null) delete next[key];
    else next[key] = String(value);
  }
  return next;
}

interface SearchTerm {
  field: string;
  key?: string;
  op: ":" | "~" | ">" | "<" | ">=" | "<=";
  value: string;
  negate: boolean;
}

/** A subset of Stripe's search query language: enough for `metadata['user_id']:'123'` and email lookups. */
export function parseSearchQuery(query: string): { terms: SearchTerm[]; join: "AND" | "OR" } {
  const terms: SearchTerm[] = [];
  const joins = new Set<string>();
  const pattern =
    /\s*(-)?(metadata\[(['"])(.+?)\3\]|[a-z_]+)\s*(:|~|>=|<=|>|<)\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?))\s*(AND|OR)?/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(query)) !== null) {
    consumed = pattern.lastIndex;
    const [, negate, field, , key, op, single, double, number, join] = match;
    const isMetadata = field.startsWith("metadata[");
    const value = single ?? double ?? number ?? "";
    if (op === "~" && value.length < 3)
      throw paramError("Substring search (~) requires at least 3 characters.", "query");
    terms.push({
      field: isMetadata ? "metadata" : field,
      key: isMetadata ? key : undefined,
      op: op as SearchTerm["op"],
      value: value.replace(/\\(.)/g, "$1"),
      negate: negate === "-",
    });
    if (join) joins.add(join);
    if (pattern.lastIndex >= query.length) break;
  }
  if (terms.length === 0 || consumed < query.trim().length) {
    throw paramError(
      `We were unable to parse your search query. Try using the format \`metadata["key"]:"value"\` to query for metadata or \`key:"value"\` to query for other fields.`,
      "query",
    );
  }
  if (joins.size > 1) throw paramError("Search queries cannot combine AND and OR.", "query");
  for (const term of terms) {
    if (!["email", "name", "phone", "metadata", "created"].includes(term.field)) {
      throw paramError(
        `Field \`${term.field}\` is an unsupported search field for resource \`customers\`. See http://stripe.com/docs/search#query-fields-for-customers for a list of supported fields.`,
        "query",
      );
    }
  }
  return { terms, join: joins.has("OR") ? "OR" : "AND" };
}

export { StripeApiError };
