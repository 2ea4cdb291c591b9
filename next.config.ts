import path from "node:path";
import type { NextConfig } from "next";
import { PHASE_PRODUCTION_SERVER } from "next/constants";
import { API_POLICY, BASELINE_HEADERS, cachedPageHeaders } from "./lib/http/security-headers";
import { enableServerCompileCache } from "./lib/app/compile-cache";

/** The query parameters that make /explore a search or a later page (app/explore/search). */
const EXPLORE_QUERY = [
  { type: "query" as const, key: "q" },
  { type: "query" as const, key: "cursor" },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Every response; pages get their Content-Security-Policy (with a nonce) and HSTS from proxy.ts, except
  // the cached public pages (/t/…), which proxy.ts leaves alone.
  async headers() {
    return [
      { source: "/:path*", headers: BASELINE_HEADERS },
      { source: "/v1/:path*", headers: [{ key: "Content-Security-Policy", value: API_POLICY }] },
      // XML, not pages: nothing may load or frame them (proxy.ts does not run for them).
      { source: "/sitemap.xml", headers: [{ key: "Content-Security-Policy", value: API_POLICY }] },
      { source: "/sitemaps/:path*", headers: [{ key: "Content-Security-Policy", value: API_POLICY }] },
      { source: "/t/:path*", headers: cachedPageHeaders() },
      { source: "/s/:slug", headers: cachedPageHeaders() },
      { source: "/s/:slug/feed.xml", headers: [{ key: "Content-Security-Policy", value: API_POLICY }] },
      // /explore's first page is cached too; a search or a later page (rewritten to /explore/search) is
      // rendered per request and gets its nonce-based policy from proxy.ts.
      { source: "/explore", missing: EXPLORE_QUERY, headers: cachedPageHeaders() },
      { source: "/explore/newest", headers: cachedPageHeaders() },
    ];
  },
  async rewrites() {
    return {
      // The public page's search without JavaScript (?q=) is rendered per request; /t/{slug} itself is cached.
      beforeFiles: [
        { source: "/t/:slug", has: [{ type: "query", key: "q" }], destination: "/t/:slug/search" },
        // A show's page searched inside (?q=): the same.
        { source: "/s/:slug", has: [{ type: "query", key: "q" }], destination: "/s/:slug/search" },
        // The same for /explore: its first page is cached (app/explore/[list]); a search or a later page is
        // rendered per request.
        ...EXPLORE_QUERY.map((query) => ({ source: "/explore", has: [query], destination: "/explore/search" })),
        { source: "/explore", missing: EXPLORE_QUERY, destination: "/explore/newest" },
      ],
      afterFiles: [],
      fallback: [],
    };
  },
  // Next.js's cache (the public pages, lib/cache/public-pages.ts): its own, in memory, with expired
  // tags shared between app processes (lib/cache/next-cache-handler.mjs). Not on disk: a restart starts
  // empty, so a page unpublished while a process was down is never served from an old file.
  cacheHandler: path.resolve("lib/cache/next-cache-handler.mjs"),
  // Route modules load when first asked for, not all at start: preloading them ran beside the first
  // requests and delayed them (docs/decisions/0008-a-quick-first-answer-and-cheap-cached-pages.md).
  // A CI build starts from a clean clone and is never built again there: Turbopack's build cache (on by default)
  // would only be written, which costs build time on two cores for nothing.
  experimental: {
    isrFlushToDisk: false,
    preloadEntriesOnStart: false,
    turbopackFileSystemCacheForBuild: !process.env.CI,
    // No source maps of the server's chunks: nothing reads them at run time (the server runs without
    // --enable-source-maps, and serverSourceMaps is off), and they were a good part of the build's work and of
    // .next/server's size. The browser's chunks have none in production either (Next's default).
    turbopackSourceMaps: false,
  },
  // `npm test` type-checks in a step of its own (tsc --noEmit, the same tsconfig) and asks its build to skip
  // Next.js's second pass over the same files. `npm run build` alone still checks.
  typescript: { ignoreBuildErrors: process.env.VERBATIM_BUILD_SKIP_TYPECHECK === "1" },
  // No ETag on pages: Next.js hashes the whole HTML of a cached page on every request to make one (a large share
  // of the CPU time of a /t/{slug} hit) instead of keeping it with the cache entry. Dynamic pages never
  // had one; the API's public answers carry their own (lib/publishing/public-transcript.ts).
  generateEtags: false,
  // Cached pages tell shared caches (CDNs) to serve a copy for at most 5 minutes (`revalidate`) and a stale
  // one for 10 more while they fetch a fresh one.
  expireTime: 900,
  // Loaded at run time from node_modules, not bundled: native/wasm payloads and the generated client.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@electric-sql/pglite-pgvector",
    "pg",
    "@prisma/adapter-pg",
    "swagger-ui-dist",
    "prom-client",
    // TensorFlow.js finds its WebAssembly files beside its own module.
    "@tensorflow/tfjs-core",
    "@tensorflow/tfjs-converter",
    "@tensorflow/tfjs-backend-wasm",
  ],
};

export default function config(phase: string): NextConfig {
  // Only what `next start` loads after reading this file is cached (lib/app/compile-cache.ts).
  if (phase === PHASE_PRODUCTION_SERVER) enableServerCompileCache();
  return nextConfig;
}
