// Global setup of the integration run (vitest.integration.config.ts): the PostgreSQL server every test
// file makes its database on, the migrated template those databases are copied from, and the Redis the
// rate-limit tests share, and the fixtures files share (test/shared-fixtures.ts: the migrated embedded database's
// dump and folder, the default embedder's files), and the programs files start as processes, bundled (test/entry-bundles.ts). The workers start after this and inherit TEST_DATABASE_ADMIN_URL,
// TEST_DATABASE_TEMPLATE, REDIS_TEST_URL and where the shared fixtures are.
import { prepareEntryBundles } from "./entry-bundles";
import { createMigratedTestDatabase, TEST_DATABASE_TEMPLATE } from "./pg";
import { ensureTestPostgres } from "./pg-server";
import { guardWords } from "./judged-guard";
import { provideTestRedis } from "./redis-server";
import { prepareMigratedPgliteDump, prepareMigratedPgliteFolder, prepareSharedModels } from "./shared-fixtures";

export default async function setup(): Promise<() => Promise<void>> {
  const server = await ensureTestPostgres();
  process.env.TEST_DATABASE_ADMIN_URL = server.adminUrl;
  // The migrations run once, into the template each file's database is copied from (test/pg.ts).
  delete process.env[TEST_DATABASE_TEMPLATE];
  const template = await createMigratedTestDatabase();
  process.env[TEST_DATABASE_TEMPLATE] = template.url;
  const redis = await provideTestRedis();
  await prepareMigratedPgliteDump();
  await prepareMigratedPgliteFolder();
  await prepareSharedModels(guardWords());
  await prepareEntryBundles();
  return async () => {
    await redis.stop?.();
    delete process.env[TEST_DATABASE_TEMPLATE];
    await template.drop();
    await server.stop?.();
  };
}
