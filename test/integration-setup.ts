// Global setup of the integration run (vitest.integration.config.ts): the PostgreSQL server every test
// file makes its database on. The workers start after this and inherit TEST_DATABASE_ADMIN_URL.
import { ensureTestPostgres } from "./pg-server";

export default async function setup(): Promise<() => Promise<void>> {
  const server = await ensureTestPostgres();
  process.env.TEST_DATABASE_ADMIN_URL = server.adminUrl;
  return async () => {
    await server.stop?.();
  };
}
