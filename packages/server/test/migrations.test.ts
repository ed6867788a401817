import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { createTestDatabase, dialects, type TestDatabase } from './helpers/app.ts';

describe.each(dialects)('migrations (%s)', (dialect) => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of made) await d.drop();
  });

  it('create every table, and running them again (a restart, or two processes at once) changes nothing', async () => {
    const database = await createTestDatabase(dialect);
    made.push(database);
    const a = createDatabase(database.config);
    const b = createDatabase(database.config);
    try {
      await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
      await migrateToLatest(a);
      const tables = (await a.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(
        expect.arrayContaining(['bills', 'entries', 'login_failures', 'payments', 'refresh_tokens', 'users']),
      );
      const applied = await a
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(applied).toHaveLength(Object.keys(migrations).length);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });
});
