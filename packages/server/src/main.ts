import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { type Config, loadConfig } from './config.ts';
import { removeUnfinishedImports, unfinishedImports } from './db/ledger-imports.ts';
import { SWEEP_GRACE, sweepAttachmentFiles, sweepSummary } from './jobs/attachment-sweep.ts';
import { purgeAccounts } from './jobs/purge.ts';
import { purgeRecycleBin } from './jobs/recycle-purge.ts';
import { scheduleHourly } from './jobs/scheduler.ts';
import { markBuildInUse } from './lib/build-dir.ts';
import { markListenText } from './lib/logger.ts';
import { describeOcrLanguages, ocrModels } from './modules/bill-reading/ocr-languages.ts';
import { DataVersionRepository } from './modules/read-model/data-version.repository.ts';

/** Where the data lives, for the start line: never a password or any other part of `DATABASE_URL`'s credentials. */
function describeDatabase(database: Config['database']): string {
  if (database.dialect === 'sqlite') return `SQLite ${database.file}`;
  try {
    const url = new URL(database.url);
    return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/**
 * How long the start may spend reading saved ledger indexes before it answers: about two copies of a million invoices
 * (docs/performance.md, "Ready from the first request"); the rest load while it answers.
 */
const SAVED_INDEXES_BEFORE_LISTENING_MS = 2_000;

const config = loadConfig();
// The compiled server (scripts/build.mjs) keeps the build it runs from while it runs.
if (import.meta.url.endsWith('.js')) markBuildInUse(dirname(fileURLToPath(import.meta.url)));
const app = await buildApp(config);
// The ledgers of account imports a stopped process left, listed before this one takes a request (so none of its own
// imports is among them) and removed in short steps once it answers (docs/decisions/0707-account-import-in-steps.md).
const leftImports = await unfinishedImports(app.db);
// The largest ledgers' saved indexes, read back before the first request (docs/decisions/0407-saved-ledger-index.md).
const savedIndexes = await app.ledgerIndexes.readSavedBeforeListening(SAVED_INDEXES_BEFORE_LISTENING_MS);
const address = await app.listen({ port: config.port, host: config.host, listenTextResolver: markListenText });
const everywhere = config.host === '0.0.0.0' || config.host === '::';
app.log.info(
  {
    address,
    database: describeDatabase(config.database),
    startSeconds: Math.round(process.uptime() * 100) / 100,
    savedIndexes,
  },
  `Billfold listening at ${address}${everywhere ? ` (all interfaces, port ${config.port})` : ''}, data in ${describeDatabase(config.database)}, started in ${process.uptime().toFixed(2)} s`,
);
// Which languages bills are read in by OCR (docs/operations.md, "Reading bills"): German only with its system package.
const ocr = ocrModels();
app.log.info({ ocrLanguages: ocr.map((m) => m.code) }, `Reading bills: ${describeOcrLanguages(ocr)}`);
const stopJobs = scheduleHourly(
  [
    { name: 'purge-accounts', run: () => purgeAccounts(app.db, config.now()) },
    { name: 'purge-recycle-bin', run: () => purgeRecycleBin(app.db, config.now()) },
    // After the purge: the files of the attachments it deleted (docs/decisions/1141-attachment-lifecycle.md).
    {
      name: 'sweep-attachment-files',
      run: async () =>
        sweepSummary(
          await sweepAttachmentFiles(app.db, app.files, { olderThan: config.now() - SWEEP_GRACE, remove: true }),
        ),
    },
    { name: 'recurring-invoices', run: () => app.schedules.run(config.now()) },
    { name: 'prune-entry-changes', run: () => new DataVersionRepository(app.db).pruneChanges() },
    { name: 'due-reminders', run: () => app.reminders.sendDigests() },
    { name: 'due-notifications', run: () => app.notifications.recordDue() },
  ],
  app.log,
);
// The notification outbox's sender: every process runs one; claims keep each message to one sender.
app.notifications.start();
// The indexes of the ledgers most likely to be read again, loaded while the server already answers (by SQL).
const preloading = app.ledgerIndexes.preload().catch((err: unknown) => app.log.error({ err }, 'preload failed'));
// A stop leaves the rest of them to the next start.
const stopRemoving = new AbortController();
const removingImports = removeUnfinishedImports(app.db, leftImports, stopRemoving.signal)
  .then((removed) => {
    if (removed.ledgers > 0) app.log.info(removed, 'unfinished imports removed');
  })
  .catch((err: unknown) => app.log.error({ err }, 'removing unfinished imports failed'));
app.finishBeforeClose(async () => {
  stopRemoving.abort();
  await Promise.all([stopJobs(), preloading, removingImports]);
  // The large ledgers' indexes, as they are now, for the next start to read back (docs/decisions/0407-saved-ledger-index.md).
  await app.ledgerIndexes.saveAll();
});

/**
 * SIGTERM (systemd, a container engine) or SIGINT (Ctrl-C): no new connections; the requests in flight, the running
 * job and the index preload finish; the database closes; exit 0. A process that has not drained within
 * `SHUTDOWN_TIMEOUT_SECONDS`, or gets a second signal, exits 1 at once.
 */
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: stopping without waiting');
      process.exit(1);
    }
    closing = true;
    const seconds = config.shutdownTimeoutSeconds ?? 25;
    app.log.info({ signal }, `Shutting down: finishing requests and jobs in flight (at most ${seconds} s)`);
    const deadline = setTimeout(() => {
      app.log.error(`Requests or jobs still running after ${seconds} s: stopping anyway`);
      process.exit(1);
    }, seconds * 1000);
    deadline.unref();
    try {
      // No job starts from now on; the one running and the requests in flight finish, then the database closes.
      void stopJobs();
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    app.log.info('Stopped');
    process.exit(0);
  });
}
