import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { purgeAccounts } from './jobs/purge.ts';
import { purgeRecycleBin } from './jobs/recycle-purge.ts';
import { scheduleHourly } from './jobs/scheduler.ts';
import { DataVersionRepository } from './modules/read-model/data-version.repository.ts';

const config = loadConfig();
const app = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
const stopJobs = scheduleHourly(
  [
    { name: 'purge-accounts', run: () => purgeAccounts(app.db, config.now()) },
    { name: 'purge-recycle-bin', run: () => purgeRecycleBin(app.db, config.now()) },
    { name: 'recurring-invoices', run: () => app.schedules.run(config.now()) },
    { name: 'prune-entry-changes', run: () => new DataVersionRepository(app.db).pruneChanges() },
    { name: 'due-reminders', run: () => app.reminders.sendDigests(app.log) },
  ],
  app.log,
);
// The indexes of the ledgers most likely to be read again, loaded while the server already answers (by SQL).
void app.ledgerIndexes.preload();

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    stopJobs();
    await app.close();
    process.exit(0);
  });
}
