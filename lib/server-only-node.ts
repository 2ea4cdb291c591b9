// `import "server-only"` outside Next (tsx scripts such as the job worker, vitest, tsc): nothing to do.
// tsconfig.json's `paths` and the vitest configs' alias point the specifier here. Inside Next its own
// alias and compiler decide: empty on the server, a build error when a Client Component's graph imports it.
export {};
