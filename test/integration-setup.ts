// Global setup of the integration run (vitest.integration.config.ts): the PostgreSQL server every test
// file makes its database on, and the Redis the rate-limit tests share. The workers start after this and
// inherit TEST_DATABASE_ADMIN_URL and REDIS_TEST_URL.
import { ensureTestPostgres } from "./pg-server";
import { provideTestRedis } from "./redis-server";

export default async function setup(): Promise<() => Promise<void>> {
  const server = await ensureTestPostgres();
  process.env.TEST_DATABASE_ADMIN_URL = server.adminUrl;
  const redis = await provideTestRedis();
  return async () => {
    await redis.stop?.();
    await server.stop?.();
  };
}
