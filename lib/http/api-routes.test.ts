import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/http/api-routes";
import { allEndpoints } from "@/lib/openapi/endpoints";

describe("the request guard's list of API routes", () => {
  it("is every endpoint's method and path, once", () => {
    const key = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;
    expect(API_ROUTES.length).toBeGreaterThan(40);
    expect(new Set(API_ROUTES.map(key)).size).toBe(API_ROUTES.length);
    expect(API_ROUTES.map(key).sort()).toEqual(allEndpoints.map(key).sort());
  });
});
