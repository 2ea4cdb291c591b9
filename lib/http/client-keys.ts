// A client's text used as a property key can reach a prototype: `object["__proto__"] = value` replaces that
// object's prototype, and a path walked key by key (`a.__proto__.b`, `a.constructor.prototype.b`) writes onto
// Object.prototype itself, which every object in the process reads. So an object filled with a client's keys
// starts from `clientKeyed()` (it has no prototype for a key to reach) or is a Map, and code that walks a client's
// path refuses these names before it walks (lib/scim/input.ts does, for SCIM's paths, filters and keys).

const PROTOTYPE_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/** True for `__proto__`, `constructor` and `prototype` in any case (SCIM's attribute names ignore case). */
export function isPrototypeName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name.toLowerCase());
}

/** An empty object to fill with a client's keys: it has no prototype, so `__proto__` is a key like any other. */
export function clientKeyed<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
