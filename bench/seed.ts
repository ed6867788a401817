import { loadConfig } from '../packages/server/src/config.ts';
import { parseArgs } from './lib/args.ts';
import { DatabaseNotEmptyError, DEFAULT_PASSWORD, seedDatabase } from './seed/seed.ts';

/**
 * `npm run seed -- [options]`: fills the database the server would use (`DATABASE_URL` / `DATA_DIR`, read by
 * the server's own `loadConfig`) with the benchmark data set.
 */
const HELP = `Usage: npm run seed -- [options]

  --invoices N    invoices per user (default 1,000,000)
  --entities N    entities per user (default 1,000)
  --schedules N   schedules per user at least (default: a share of the recurring entities, about 17 in 100)
  --users N       users (default 1): demo, demo2, demo3, ...
  --username S    first user's name (default demo)
  --password S    password of every seeded user (default ${DEFAULT_PASSWORD})
  --seed N        random seed; the same seed gives the same data (default 1)
  --force         wipe a database that already holds data
  --append        add the users beside existing data
  --help

The database is the server's: DATABASE_URL (sqlite:<path>, a file path, or postgres://...) or
DATA_DIR/billfold.db (default ./data/billfold.db).`;

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), {
    invoices: 'number',
    entities: 'number',
    schedules: 'number',
    users: 'number',
    username: 'string',
    password: 'string',
    seed: 'number',
    force: 'boolean',
    append: 'boolean',
    help: 'boolean',
  });
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  if (args.force && args.append) throw new Error('--force and --append exclude each other');
  const config = loadConfig();
  const target = config.database.dialect === 'sqlite' ? config.database.file : redact(config.database.url);
  console.error(`Seeding ${config.database.dialect} database ${target}`);
  try {
    const result = await seedDatabase(config.database, {
      invoices: args.invoices ?? 1_000_000,
      entities: args.entities ?? 1_000,
      ...(args.schedules === undefined ? {} : { schedules: args.schedules }),
      users: args.users ?? 1,
      seed: args.seed ?? 1,
      username: args.username ?? 'demo',
      password: args.password ?? DEFAULT_PASSWORD,
      mode: args.force ? 'force' : args.append ? 'append' : 'empty',
      progress: true,
    });
    const n = (x: number) => x.toLocaleString('en-US');
    console.log(`Seeded in ${result.seconds.toFixed(1)} s.`);
    console.log(
      `Database now holds ${n(result.counts.users)} users, ${n(result.counts.bills)} entities, ` +
        `${n(result.counts.entries)} invoices, ${n(result.counts.payments)} payments.`,
    );
    for (const user of result.users) console.log(`  user ${user.username} (id ${user.id})`);
    console.log(`Password of the seeded users: ${result.password}`);
    return 0;
  } catch (err) {
    if (err instanceof DatabaseNotEmptyError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

process.exitCode = await main();
