/**
 * The v1 endpoints the fake serves: method, path, the parameters Stripe accepts there (anything else is
 * "Received unknown parameter"), and what it does. Lists follow Stripe's pagination; every answer goes
 * through `expand[]`.
 */
import { checkParams, pagination, paramError, rangeOrInt, type JsonObject, type ParamsSpec, type Spec } from "./params";
import type { FakeStripeState, Kind, RenderContext } from "./state";

export interface RouteContext {
  state: FakeStripeState;
  params: JsonObject;
  ids: string[];
  render: RenderContext;
}

export interface Route {
  method: "GET" | "POST" | "DELETE";
  pattern: RegExp;
  spec: ParamsSpec;
  required?: string[];
  /** A single object (kind + record) or an already rendered JSON object (lists). */
  run(ctx: RouteContext): { kind: Kind; rec: unknown } | { json: JsonObject };
}

const metadata: Spec = { emptyable: "metadata" };
const str: Spec = "string";
const emptyableString: Spec = { emptyable: "string" };
const address: Spec = {
  emptyable: { object: { city: str, country: str, line1: str, line2: str, postal_code: str, state: str } },
};
const id = "([^/]+)";
const interval: Spec = { enum: ["day", "week", "month", "year"] };
const discountsParam: Spec = { emptyable: { array: { object: { coupon: str, promotion_code: str, discount: str } } } };

const customerFields: ParamsSpec = {
  address,
  balance: "integer",
  description: emptyableString,
  email: emptyableString,
  invoice_settings: {
    object: { custom_fields: "any", default_payment_method: str, footer: str, rendering_options: "any" },
  },
  metadata,
  name: emptyableString,
  phone: emptyableString,
  preferred_locales: { array: str },
  shipping: "any",
  tax_exempt: { emptyable: { enum: ["exempt", "none", "reverse"] } },
  expand: "expand",
};

const recurring: Spec = {
  object: {
    interval,
    interval_count: "integer",
    usage_type: { enum: ["licensed", "metered"] },
    trial_period_days: "integer",
    meter: str,
  },
  required: ["interval"],
};

const phaseSpec: Spec = {
  object: {
    add_invoice_items: "any",
    application_fee_percent: "number",
    automatic_tax: "any",
    billing_cycle_anchor: { enum: ["automatic", "phase_start"] },
    collection_method: { enum: ["charge_automatically", "send_invoice"] },
    currency: str,
    default_payment_method: str,
    default_tax_rates: "any",
    description: emptyableString,
    discounts: discountsParam,
    duration: { object: { interval, interval_count: "integer" }, required: ["interval"] },
    end_date: { oneOf: ["integer", { enum: ["now"] }] },
    invoice_settings: "any",
    items: {
      array: {
        object: {
          billing_thresholds: "any",
          discounts: discountsParam,
          metadata: "metadata",
          plan: str,
          price: str,
          price_data: "any",
          quantity: "integer",
          tax_rates: "any",
        },
      },
    },
    iterations: "integer",
    metadata: "metadata",
    on_behalf_of: str,
    proration_behavior: { enum: ["always_invoice", "create_prorations", "none"] },
    start_date: { oneOf: ["integer", { enum: ["now"] }] },
    transfer_data: "any",
    trial: "boolean",
    trial_end: { oneOf: ["integer", { enum: ["now"] }] },
  },
};

const listOf = (
  state: FakeStripeState,
  kind: Kind,
  items: { id: string }[],
  params: JsonObject,
  url: string,
  render: RenderContext,
) => {
  const page = state.page(items, params);
  return {
    json: state.listJson(
      page.data.map((rec) => state.render(kind, rec, render)),
      page.hasMore,
      url,
    ),
  };
};

const createdFilter = (created: unknown, at: number): boolean => {
  if (created === undefined) return true;
  if (typeof created === "number") return at === created;
  const range = created as Record<string, number>;
  return (
    (range.gt === undefined || at > range.gt) &&
    (range.gte === undefined || at >= range.gte) &&
    (range.lt === undefined || at < range.lt) &&
    (range.lte === undefined || at <= range.lte)
  );
};

export const routes: Route[] = [
  // Customers ----------------------------------------------------------------------------------------------
  {
    method: "POST",
    pattern: /^\/v1\/customers$/,
    spec: { ...customerFields, payment_method: str, test_clock: str, source: str },
    run: ({ state, params }) => ({ kind: "customer", rec: state.createCustomer(params).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/customers\/search$/,
    spec: { query: str, limit: "integer", page: str, expand: "expand" },
    required: ["query"],
    run: ({ state, params, render }) => {
      const limit = params.limit === undefined ? 10 : Number(params.limit);
      if (limit < 1 || limit > 100)
        throw paramError(`This value must be less than or equal to 100 (it currently is '${limit}').`, "limit");
      const all = state.searchCustomers(String(params.query));
      const offset = params.page ? Number(Buffer.from(String(params.page), "base64url").toString()) || 0 : 0;
      const data = all.slice(offset, offset + limit);
      const hasMore = all.length > offset + limit;
      return {
        json: {
          object: "search_result",
          data: data.map((c) => state.render("customer", c, render)),
          has_more: hasMore,
          next_page: hasMore ? Buffer.from(String(offset + limit)).toString("base64url") : null,
          url: "/v1/customers/search",
        },
      };
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/customers/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "customer", rec: state.get("customer", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/customers/${id}$`),
    spec: { ...customerFields, default_source: str, source: str },
    run: ({ state, params, ids }) => ({ kind: "customer", rec: state.updateCustomer(ids[0], params).object }),
  },
  {
    method: "DELETE",
    pattern: new RegExp(`^/v1/customers/${id}$`),
    spec: {},
    run: ({ state, ids }) => ({ kind: "customer", rec: state.deleteCustomer(ids[0]).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/customers$/,
    spec: { ...pagination, email: str, created: rangeOrInt, test_clock: str },
    run: ({ state, params, render }) => {
      const items = state
        .all("customer")
        .filter(
          (c) =>
            !c.deleted &&
            (params.email === undefined || c.email === params.email) &&
            createdFilter(params.created, c.created),
        );
      return listOf(state, "customer", items, params, "/v1/customers", render);
    },
  },

  // Products and prices ------------------------------------------------------------------------------------
  {
    method: "POST",
    pattern: /^\/v1\/products$/,
    spec: {
      name: str,
      id: str,
      active: "boolean",
      description: str,
      metadata: "metadata",
      images: { array: str },
      marketing_features: { array: { object: { name: str } } },
      default_price_data: {
        object: {
          currency: str,
          unit_amount: "integer",
          unit_amount_decimal: str,
          recurring,
          tax_behavior: str,
          currency_options: "any",
          custom_unit_amount: "any",
        },
        required: ["currency"],
      },
      shippable: "boolean",
      statement_descriptor: str,
      tax_code: str,
      unit_label: str,
      url: str,
      package_dimensions: "any",
      expand: "expand",
    },
    required: ["name"],
    run: ({ state, params }) => ({ kind: "product", rec: state.createProduct(params).object }),
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/products/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "product", rec: state.get("product", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/products/${id}$`),
    spec: {
      active: "boolean",
      default_price: str,
      description: emptyableString,
      images: { emptyable: { array: str } },
      marketing_features: { emptyable: { array: { object: { name: str } } } },
      metadata,
      name: str,
      shippable: "boolean",
      statement_descriptor: str,
      tax_code: emptyableString,
      unit_label: emptyableString,
      url: emptyableString,
      package_dimensions: "any",
      expand: "expand",
    },
    run: ({ state, params, ids }) => ({ kind: "product", rec: state.updateProduct(ids[0], params).object }),
  },
  {
    method: "DELETE",
    pattern: new RegExp(`^/v1/products/${id}$`),
    spec: {},
    run: ({ state, ids }) => ({ kind: "product", rec: state.deleteProduct(ids[0]).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/products$/,
    spec: {
      ...pagination,
      active: "boolean",
      created: rangeOrInt,
      ids: { array: str },
      shippable: "boolean",
      url: str,
    },
    run: ({ state, params, render }) => {
      const ids = params.ids as string[] | undefined;
      const items = state
        .all("product")
        .filter(
          (p) =>
            !p.deleted &&
            (params.active === undefined || p.active === params.active) &&
            (!ids || ids.includes(p.id)) &&
            createdFilter(params.created, p.created),
        );
      return listOf(state, "product", items, params, "/v1/products", render);
    },
  },
  {
    method: "POST",
    pattern: /^\/v1\/prices$/,
    spec: {
      currency: str,
      active: "boolean",
      billing_scheme: { enum: ["per_unit", "tiered"] },
      lookup_key: str,
      metadata: "metadata",
      nickname: str,
      product: str,
      product_data: {
        object: {
          name: str,
          active: "boolean",
          id: str,
          metadata: "metadata",
          statement_descriptor: str,
          tax_code: str,
          unit_label: str,
        },
        required: ["name"],
      },
      recurring,
      tax_behavior: { enum: ["exclusive", "inclusive", "unspecified"] },
      transfer_lookup_key: "boolean",
      unit_amount: "integer",
      unit_amount_decimal: str,
      currency_options: "any",
      custom_unit_amount: "any",
      tiers: "any",
      tiers_mode: str,
      transform_quantity: "any",
      expand: "expand",
    },
    required: ["currency"],
    run: ({ state, params }) => ({ kind: "price", rec: state.createPrice(params).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/prices\/search$/,
    spec: { query: str, limit: "integer", page: str, expand: "expand" },
    required: ["query"],
    run: () => {
      throw paramError("Price search is not supported by this fake; list with lookup_keys[] instead.", "query");
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/prices/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "price", rec: state.get("price", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/prices/${id}$`),
    spec: {
      active: "boolean",
      lookup_key: str,
      metadata,
      nickname: emptyableString,
      tax_behavior: { enum: ["exclusive", "inclusive", "unspecified"] },
      transfer_lookup_key: "boolean",
      currency_options: "any",
      expand: "expand",
    },
    run: ({ state, params, ids }) => ({ kind: "price", rec: state.updatePrice(ids[0], params).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/prices$/,
    spec: {
      ...pagination,
      active: "boolean",
      currency: str,
      lookup_keys: { array: str },
      product: str,
      recurring: { object: { interval, meter: str, usage_type: { enum: ["licensed", "metered"] } } },
      type: { enum: ["one_time", "recurring"] },
      created: rangeOrInt,
    },
    run: ({ state, params, render }) => {
      const lookupKeys = params.lookup_keys as string[] | undefined;
      if (lookupKeys && lookupKeys.length > 10)
        throw paramError("You may only specify up to 10 lookup keys.", "lookup_keys");
      const rec = params.recurring as JsonObject | undefined;
      const items = state
        .all("price")
        .filter(
          (p) =>
            (params.active === undefined || p.active === params.active) &&
            (params.currency === undefined || p.currency === params.currency) &&
            (!lookupKeys || (p.lookup_key !== null && lookupKeys.includes(p.lookup_key))) &&
            (params.product === undefined || p.product === params.product) &&
            (params.type === undefined || (params.type === "recurring") === (p.recurring !== null)) &&
            (!rec ||
              (p.recurring !== null &&
                (rec.interval === undefined || p.recurring.interval === rec.interval) &&
                (rec.usage_type === undefined || p.recurring.usage_type === rec.usage_type))) &&
            createdFilter(params.created, p.created),
        );
      return listOf(state, "price", items, params, "/v1/prices", render);
    },
  },

  // Coupons and promotion codes ----------------------------------------------------------------------------
  {
    method: "POST",
    pattern: /^\/v1\/coupons$/,
    spec: {
      id: str,
      amount_off: "integer",
      applies_to: { object: { products: { array: str } } },
      currency: str,
      currency_options: "any",
      duration: { enum: ["forever", "once", "repeating"] },
      duration_in_months: "integer",
      max_redemptions: "integer",
      metadata,
      name: str,
      percent_off: "number",
      redeem_by: "integer",
      expand: "expand",
    },
    run: ({ state, params }) => ({ kind: "coupon", rec: state.createCoupon(params).object }),
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/coupons/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "coupon", rec: state.get("coupon", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/coupons/${id}$`),
    spec: { name: str, metadata, currency_options: "any", expand: "expand" },
    run: ({ state, params, ids }) => ({ kind: "coupon", rec: state.updateCoupon(ids[0], params).object }),
  },
  {
    method: "DELETE",
    pattern: new RegExp(`^/v1/coupons/${id}$`),
    spec: {},
    run: ({ state, ids }) => ({ kind: "coupon", rec: state.deleteCoupon(ids[0]).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/coupons$/,
    spec: { ...pagination, created: rangeOrInt },
    run: ({ state, params, render }) => {
      const items = state.all("coupon").filter((c) => !c.deleted && createdFilter(params.created, c.created));
      return listOf(state, "coupon", items, params, "/v1/coupons", render);
    },
  },
  {
    method: "POST",
    pattern: /^\/v1\/promotion_codes$/,
    spec: {
      promotion: { object: { type: { enum: ["coupon"] }, coupon: str }, required: ["type"] },
      active: "boolean",
      code: str,
      customer: str,
      customer_account: str,
      expires_at: "integer",
      max_redemptions: "integer",
      metadata: "metadata",
      restrictions: {
        object: {
          currency_options: "any",
          first_time_transaction: "boolean",
          minimum_amount: "integer",
          minimum_amount_currency: str,
        },
      },
      expand: "expand",
    },
    required: ["promotion"],
    run: ({ state, params }) => ({ kind: "promotion_code", rec: state.createPromotionCode(params).object }),
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/promotion_codes/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "promotion_code", rec: state.get("promotion_code", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/promotion_codes/${id}$`),
    spec: { active: "boolean", metadata, restrictions: { object: { currency_options: "any" } }, expand: "expand" },
    run: ({ state, params, ids }) => ({
      kind: "promotion_code",
      rec: state.updatePromotionCode(ids[0], params).object,
    }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/promotion_codes$/,
    spec: {
      ...pagination,
      active: "boolean",
      code: str,
      coupon: str,
      created: rangeOrInt,
      customer: str,
      customer_account: str,
    },
    run: ({ state, params, render }) => {
      const items = state
        .all("promotion_code")
        .filter(
          (p) =>
            (params.active === undefined || state.promotionCodeActive(p) === params.active) &&
            (params.code === undefined || p.code.toLowerCase() === String(params.code).toLowerCase()) &&
            (params.coupon === undefined || p.coupon === params.coupon) &&
            (params.customer === undefined || p.customer === params.customer) &&
            createdFilter(params.created, p.created),
        );
      return listOf(state, "promotion_code", items, params, "/v1/promotion_codes", render);
    },
  },

  // Checkout and the billing portal ------------------------------------------------------------------------
  {
    method: "POST",
    pattern: /^\/v1\/checkout\/sessions$/,
    spec: {
      mode: { enum: ["payment", "setup", "subscription"] },
      line_items: {
        array: {
          object: {
            price: str,
            quantity: "integer",
            adjustable_quantity: "any",
            dynamic_tax_rates: "any",
            price_data: "any",
            tax_rates: "any",
            metadata: "metadata",
          },
        },
      },
      customer: str,
      customer_email: str,
      customer_creation: { enum: ["always", "if_required"] },
      customer_update: "any",
      client_reference_id: str,
      success_url: str,
      cancel_url: str,
      return_url: str,
      ui_mode: str,
      allow_promotion_codes: "boolean",
      discounts: { array: { object: { coupon: str, promotion_code: str } } },
      metadata: "metadata",
      subscription_data: {
        object: {
          application_fee_percent: "number",
          billing_cycle_anchor: "integer",
          billing_mode: "any",
          default_tax_rates: "any",
          description: str,
          invoice_settings: "any",
          metadata: "metadata",
          on_behalf_of: str,
          proration_behavior: { enum: ["create_prorations", "none"] },
          transfer_data: "any",
          trial_end: "integer",
          trial_period_days: "integer",
          trial_settings: "any",
        },
      },
      payment_method_types: { array: str },
      payment_method_collection: { enum: ["always", "if_required"] },
      payment_method_configuration: str,
      billing_address_collection: { enum: ["auto", "required"] },
      locale: str,
      expires_at: "integer",
      currency: str,
      automatic_tax: "any",
      consent_collection: "any",
      custom_fields: "any",
      custom_text: "any",
      tax_id_collection: "any",
      saved_payment_method_options: "any",
      phone_number_collection: "any",
      submit_type: str,
      expand: "expand",
    },
    run: ({ state, params }) => ({ kind: "checkout.session", rec: state.createCheckoutSession(params).object }),
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/checkout/sessions/${id}/line_items$`),
    spec: { ...pagination },
    run: ({ state, ids, params, render }) => {
      state.get("checkout.session", ids[0]);
      const json = state.expand({ object: "checkout.session", id: ids[0] }, ["line_items"], render)
        .line_items as JsonObject;
      const page = state.page(json.data as (JsonObject & { id: string })[], params);
      return { json: state.listJson(page.data, page.hasMore, json.url as string) };
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/checkout/sessions/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "checkout.session", rec: state.get("checkout.session", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/checkout/sessions/${id}/expire$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "checkout.session", rec: state.expireCheckoutSession(ids[0]).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/checkout\/sessions$/,
    spec: {
      ...pagination,
      customer: str,
      customer_details: "any",
      subscription: str,
      status: { enum: ["complete", "expired", "open"] },
      payment_intent: str,
      payment_link: str,
      created: rangeOrInt,
    },
    run: ({ state, params, render }) => {
      const items = state
        .all("checkout.session")
        .filter(
          (s) =>
            (params.customer === undefined || s.customer === params.customer) &&
            (params.subscription === undefined || s.subscription === params.subscription) &&
            (params.status === undefined || s.status === params.status) &&
            createdFilter(params.created, s.created),
        );
      return listOf(state, "checkout.session", items, params, "/v1/checkout/sessions", render);
    },
  },
  {
    method: "POST",
    pattern: /^\/v1\/billing_portal\/sessions$/,
    spec: {
      customer: str,
      customer_account: str,
      return_url: str,
      configuration: str,
      flow_data: "any",
      locale: str,
      on_behalf_of: str,
      expand: "expand",
    },
    required: ["customer"],
    run: ({ state, params }) => ({ kind: "billing_portal.session", rec: state.createPortalSession(params).object }),
  },

  // Subscriptions ------------------------------------------------------------------------------------------
  {
    method: "POST",
    pattern: /^\/v1\/subscriptions$/,
    spec: {
      customer: str,
      items: {
        array: {
          object: {
            price: str,
            quantity: "integer",
            metadata: "metadata",
            discounts: discountsParam,
            tax_rates: "any",
            price_data: "any",
            billing_thresholds: "any",
          },
        },
      },
      metadata: "metadata",
      cancel_at_period_end: "boolean",
      collection_method: { enum: ["charge_automatically", "send_invoice"] },
      default_payment_method: str,
      description: str,
      discounts: discountsParam,
      off_session: "boolean",
      payment_behavior: {
        enum: ["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"],
      },
      payment_settings: "any",
      proration_behavior: { enum: ["always_invoice", "create_prorations", "none"] },
      trial_period_days: "integer",
      expand: "expand",
    },
    required: ["customer"],
    run: ({ state, params }) => {
      const items = (params.items as JsonObject[] | undefined) ?? [];
      items.forEach((item, i) => {
        if (!item.price)
          throw paramError(`Missing required param: items[${i}][price].`, `items[${i}][price]`, "parameter_missing");
      });
      const discounts = ((params.discounts as JsonObject[] | null | undefined) ?? []).map((d, i) => {
        if (d.promotion_code) {
          const promo = state.get("promotion_code", String(d.promotion_code), `discounts[${i}][promotion_code]`);
          return { coupon: promo.coupon, promotion_code: promo.id };
        }
        return { coupon: state.get("coupon", String(d.coupon), `discounts[${i}][coupon]`).id, promotion_code: null };
      });
      const created = state.createSubscription({
        customer: String(params.customer),
        items: items.map((item) => ({
          price: String(item.price),
          quantity: item.quantity as number | undefined,
          metadata: item.metadata as Record<string, string> | undefined,
        })),
        metadata: params.metadata as Record<string, string> | undefined,
        description: (params.description as string | undefined) ?? null,
        cancel_at_period_end: params.cancel_at_period_end as boolean | undefined,
        discounts,
      });
      return { kind: "subscription", rec: created.object };
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/subscriptions/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "subscription", rec: state.get("subscription", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/subscriptions/${id}$`),
    spec: {
      items: {
        array: {
          object: {
            id: str,
            price: str,
            quantity: "integer",
            deleted: "boolean",
            clear_usage: "boolean",
            metadata,
            discounts: discountsParam,
            tax_rates: "any",
            price_data: "any",
            billing_thresholds: "any",
          },
        },
      },
      proration_behavior: { enum: ["always_invoice", "create_prorations", "none"] },
      proration_date: "integer",
      cancel_at_period_end: "boolean",
      cancel_at: { emptyable: { oneOf: ["integer", { enum: ["max_period_end", "min_period_end"] }] } },
      cancellation_details: { object: { comment: emptyableString, feedback: { emptyable: str } } },
      billing_cycle_anchor: { enum: ["now", "unchanged"] },
      payment_behavior: {
        enum: ["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"],
      },
      metadata,
      description: emptyableString,
      default_payment_method: emptyableString,
      discounts: discountsParam,
      off_session: "boolean",
      pause_collection: "any",
      payment_settings: "any",
      trial_end: { oneOf: ["integer", { enum: ["now"] }] },
      expand: "expand",
    },
    run: ({ state, params, ids }) => ({ kind: "subscription", rec: state.updateSubscription(ids[0], params).object }),
  },
  {
    method: "DELETE",
    pattern: new RegExp(`^/v1/subscriptions/${id}$`),
    spec: {
      invoice_now: "boolean",
      prorate: "boolean",
      cancellation_details: { object: { comment: emptyableString, feedback: { emptyable: str } } },
      expand: "expand",
    },
    run: ({ state, params, ids }) => ({ kind: "subscription", rec: state.cancelSubscription(ids[0], params).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/subscriptions$/,
    spec: {
      ...pagination,
      customer: str,
      customer_account: str,
      price: str,
      status: {
        enum: [
          "active",
          "all",
          "canceled",
          "ended",
          "incomplete",
          "incomplete_expired",
          "past_due",
          "paused",
          "trialing",
          "unpaid",
        ],
      },
      collection_method: { enum: ["charge_automatically", "send_invoice"] },
      created: rangeOrInt,
      current_period_end: rangeOrInt,
      current_period_start: rangeOrInt,
      test_clock: str,
      automatic_tax: "any",
    },
    run: ({ state, params, render }) => {
      const status = params.status as string | undefined;
      const items = state.all("subscription").filter((s) => {
        if (params.customer !== undefined && s.customer !== params.customer) return false;
        if (params.price !== undefined && !s.items.some((i) => i.price === params.price)) return false;
        if (!createdFilter(params.created, s.created)) return false;
        if (status === undefined) return s.status !== "canceled" && s.status !== "incomplete_expired";
        if (status === "all") return true;
        if (status === "ended") return s.status === "canceled" || s.status === "incomplete_expired";
        return s.status === status;
      });
      return listOf(state, "subscription", items, params, "/v1/subscriptions", render);
    },
  },

  // Subscription schedules ---------------------------------------------------------------------------------
  {
    method: "POST",
    pattern: /^\/v1\/subscription_schedules$/,
    spec: {
      from_subscription: str,
      customer: str,
      customer_account: str,
      phases: { array: phaseSpec },
      start_date: { oneOf: ["integer", { enum: ["now"] }] },
      end_behavior: { enum: ["cancel", "none", "release", "renew"] },
      metadata,
      default_settings: "any",
      billing_mode: "any",
      expand: "expand",
    },
    run: ({ state, params }) => ({ kind: "subscription_schedule", rec: state.createSchedule(params).object }),
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/subscription_schedules/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "subscription_schedule", rec: state.get("subscription_schedule", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/subscription_schedules/${id}$`),
    spec: {
      phases: { array: phaseSpec },
      end_behavior: { enum: ["cancel", "none", "release", "renew"] },
      proration_behavior: { enum: ["always_invoice", "create_prorations", "none"] },
      metadata,
      default_settings: "any",
      expand: "expand",
    },
    run: ({ state, params, ids }) => ({
      kind: "subscription_schedule",
      rec: state.updateSchedule(ids[0], params).object,
    }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/subscription_schedules/${id}/release$`),
    spec: { preserve_cancel_date: "boolean", expand: "expand" },
    run: ({ state, params, ids }) => ({
      kind: "subscription_schedule",
      rec: state.releaseSchedule(ids[0], params).object,
    }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/subscription_schedules/${id}/cancel$`),
    spec: { invoice_now: "boolean", prorate: "boolean", expand: "expand" },
    run: ({ state, ids }) => ({ kind: "subscription_schedule", rec: state.cancelSchedule(ids[0]).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/subscription_schedules$/,
    spec: {
      ...pagination,
      customer: str,
      customer_account: str,
      scheduled: "boolean",
      canceled_at: rangeOrInt,
      completed_at: rangeOrInt,
      created: rangeOrInt,
      released_at: rangeOrInt,
    },
    run: ({ state, params, render }) => {
      const items = state
        .all("subscription_schedule")
        .filter(
          (s) =>
            (params.customer === undefined || s.customer === params.customer) &&
            (params.scheduled === undefined || (s.status === "not_started") === params.scheduled) &&
            createdFilter(params.created, s.created),
        );
      return listOf(state, "subscription_schedule", items, params, "/v1/subscription_schedules", render);
    },
  },

  // Invoices -----------------------------------------------------------------------------------------------
  {
    method: "GET",
    pattern: new RegExp(`^/v1/invoices/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "invoice", rec: state.get("invoice", ids[0]) }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/invoices/${id}/pay$`),
    spec: {
      paid_out_of_band: "boolean",
      payment_method: str,
      off_session: "boolean",
      forgive: "boolean",
      mandate: str,
      source: str,
      expand: "expand",
    },
    run: ({ state, params, ids }) => ({ kind: "invoice", rec: state.payInvoice(ids[0], params).object }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/invoices$/,
    spec: {
      ...pagination,
      customer: str,
      customer_account: str,
      subscription: str,
      status: { enum: ["draft", "open", "paid", "uncollectible", "void"] },
      collection_method: { enum: ["charge_automatically", "send_invoice"] },
      created: rangeOrInt,
      due_date: rangeOrInt,
    },
    run: ({ state, params, render }) => {
      const items = state
        .all("invoice")
        .filter(
          (i) =>
            (params.customer === undefined || i.customer === params.customer) &&
            (params.subscription === undefined || i.subscription === params.subscription) &&
            (params.status === undefined || i.status === params.status) &&
            createdFilter(params.created, i.created),
        );
      return listOf(state, "invoice", items, params, "/v1/invoices", render);
    },
  },

  // Events -------------------------------------------------------------------------------------------------
  {
    method: "GET",
    pattern: new RegExp(`^/v1/events/${id}$`),
    spec: { expand: "expand" },
    run: ({ state, ids }) => ({ kind: "event", rec: state.get("event", ids[0]) }),
  },
  {
    method: "GET",
    pattern: /^\/v1\/events$/,
    spec: { ...pagination, type: str, types: { array: str }, created: rangeOrInt, delivery_success: "boolean" },
    run: ({ state, params, render }) => {
      const types = params.types as string[] | undefined;
      const matches = (type: string, pattern: string) =>
        pattern.endsWith(".*") ? type.startsWith(pattern.slice(0, -1)) : type === pattern;
      const items = state
        .all("event")
        .filter(
          (e) =>
            (params.type === undefined || matches(String(e.type), String(params.type))) &&
            (!types || types.some((t) => matches(String(e.type), t))) &&
            createdFilter(params.created, Number(e.created)),
        ) as (JsonObject & { id: string })[];
      return listOf(state, "event", items, params, "/v1/events", render);
    },
  },
];

/** Finds the route; a known path with another method is still "Unrecognized request URL" at Stripe. */
export function matchRoute(method: string, path: string): { route: Route; ids: string[] } | null {
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (m) return { route, ids: m.slice(1).map(decodeURIComponent) };
  }
  return null;
}

export function checkRouteParams(route: Route, raw: Parameters<typeof checkParams>[0]): JsonObject {
  return checkParams(raw, route.spec, route.required);
}
