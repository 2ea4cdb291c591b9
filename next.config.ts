import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Loaded at run time from node_modules, not bundled: native/wasm payloads and the generated client.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "swagger-ui-dist"],
};

export default nextConfig;
