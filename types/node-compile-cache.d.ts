// Node's compile cache (next.config.ts, instrumentation.ts): in every Node the project supports (22.12 on),
// but not declared by the @types/node version it pins.
declare module "module" {
  namespace Module {
    function enableCompileCache(cacheDir?: string): { status: number; message?: string; directory?: string };
    function flushCompileCache(): void;
  }
}
