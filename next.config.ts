import type { NextConfig } from "next";
import { API_POLICY, BASELINE_HEADERS } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Every response; pages get their Content-Security-Policy (with a nonce) and HSTS from proxy.ts.
  async headers() {
    return [
      { source: "/:path*", headers: BASELINE_HEADERS },
      { source: "/v1/:path*", headers: [{ key: "Content-Security-Policy", value: API_POLICY }] },
    ];
  },
  // Loaded at run time from node_modules, not bundled: native/wasm payloads and the generated client.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "swagger-ui-dist", "prom-client"],
};

export default nextConfig;
