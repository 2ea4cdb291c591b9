// Global setup of the integration run (vitest.integration.config.ts): the PostgreSQL server every test
// file makes its database on, the migrated template those databases are copied from, and the Redis the
// rate-limit tests share. The workers start after this and inherit TEST_DATABASE_ADMIN_URL,
// TEST_DATABASE_TEMPLATE and REDIS_TEST_URL.
import { createMigratedTestDatabase, TEST_DATABASE_TEMPLATE } from "./pg";
import { ensureTestPostgres } from "./pg-server";
import { provideTestRedis } from "./redis-server";

export default async function setup(): Promise<() => Promise<void>> {
  const server = await ensureTestPostgres();
  process.env.TEST_DATABASE_ADMIN_URL = server.adminUrl;
  // The migrations run once, into the template each file's database is copied from (test/pg.ts).
  delete process.env[TEST_DATABASE_TEMPLATE];
  const template = await createMigratedTestDatabase();
  process.env[TEST_DATABASE_TEMPLATE] = template.url;
  const redis = await provideTestRedis();
  return async () => {
    await redis.stop?.();
    delete process.env[TEST_DATABASE_TEMPLATE];
    await template.drop();
    await server.stop?.();
  };
}
