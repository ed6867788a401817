import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { type Config, DEFAULT_NOTIFY_TIMEOUT_SECONDS, resolvedLimits, type TrustProxy } from './config.ts';
import { closeDatabase, createDatabase, type Db, databaseProbe, migrateToLatest } from './db/database.ts';
import { createFileStore, type FileStore } from './lib/file-store.ts';
import { loggerOptions, registerRequestLogging, resolveLogFormat } from './lib/logger.ts';
import { createMailer } from './lib/mailer.ts';
import { Outbox } from './lib/outbox.ts';
import { SecretBox } from './lib/secret-box.ts';
import { AccountDataRepository } from './modules/account-data/account-data.repository.ts';
import { accountDataRoutes } from './modules/account-data/account-data.routes.ts';
import { AccountDataService } from './modules/account-data/account-data.service.ts';
import { AttachmentsRepository } from './modules/attachments/attachments.repository.ts';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.ts';
import { AttachmentsService } from './modules/attachments/attachments.service.ts';
import { AuthRepository } from './modules/auth/auth.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { oidcAccountRoutes, oidcRoutes } from './modules/auth/oidc.routes.ts';
import { OidcService } from './modules/auth/oidc.service.ts';
import { BillReadingRepository } from './modules/bill-reading/bill-reading.repository.ts';
import { billReadingRoutes } from './modules/bill-reading/bill-reading.routes.ts';
import { type BillFileReader, BillReadingService } from './modules/bill-reading/bill-reading.service.ts';
import { BillsRepository } from './modules/bills/bills.repository.ts';
import { billsRoutes } from './modules/bills/bills.routes.ts';
import { BillsService } from './modules/bills/bills.service.ts';
import { EntitySnapshots } from './modules/bills/entity-snapshots.ts';
import { CalendarRepository } from './modules/calendar/calendar.repository.ts';
import { calendarFileRoutes, calendarRoutes } from './modules/calendar/calendar.routes.ts';
import { CalendarService, maskCalendarToken } from './modules/calendar/calendar.service.ts';
import { CategoriesRepository } from './modules/categories/categories.repository.ts';
import { categoriesRoutes } from './modules/categories/categories.routes.ts';
import { CategoriesService } from './modules/categories/categories.service.ts';
import { DueRepository } from './modules/due/due.repository.ts';
import { dueRoutes } from './modules/due/due.routes.ts';
import { DueService } from './modules/due/due.service.ts';
import { EmailVerificationRepository } from './modules/email-verification/email-verification.repository.ts';
import { emailVerificationRoutes, emailVerifyRoutes } from './modules/email-verification/email-verification.routes.ts';
import { EmailVerificationService } from './modules/email-verification/email-verification.service.ts';
import { EntriesRepository } from './modules/entries/entries.repository.ts';
import { entriesRoutes } from './modules/entries/entries.routes.ts';
import { EntriesService } from './modules/entries/entries.service.ts';
import { entriesListRoutes } from './modules/entries/entries-list.routes.ts';
import { EntriesListService } from './modules/entries/entries-list.service.ts';
import { ForecastRepository } from './modules/forecast/forecast.repository.ts';
import { forecastRoutes } from './modules/forecast/forecast.routes.ts';
import { ForecastService } from './modules/forecast/forecast.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { HistoryReader } from './modules/history/history.repository.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { HistoryService } from './modules/history/history.service.ts';
import { ImportsRepository } from './modules/imports/imports.repository.ts';
import { importsRoutes } from './modules/imports/imports.routes.ts';
import { ImportsService } from './modules/imports/imports.service.ts';
import { InvitationsService, maskInvitationToken } from './modules/ledgers/invitations.service.ts';
import { LedgersRepository } from './modules/ledgers/ledgers.repository.ts';
import { ledgersRoutes } from './modules/ledgers/ledgers.routes.ts';
import { LedgersService } from './modules/ledgers/ledgers.service.ts';
import { MfaRepository } from './modules/mfa/mfa.repository.ts';
import { mfaRoutes } from './modules/mfa/mfa.routes.ts';
import { MfaService } from './modules/mfa/mfa.service.ts';
import { NotificationSender } from './modules/notifications/notification-sender.ts';
import { NotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import { VAPID_SEALED_ELSEWHERE, vapidKeys } from './modules/notifications/vapid.ts';
import { PasswordResetRepository } from './modules/password-reset/password-reset.repository.ts';
import { passwordResetRoutes } from './modules/password-reset/password-reset.routes.ts';
import { PasswordResetService } from './modules/password-reset/password-reset.service.ts';
import { PaymentsRepository } from './modules/payments/payments.repository.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { PriceHistoryRepository } from './modules/price-history/price-history.repository.ts';
import { priceHistoryRoutes } from './modules/price-history/price-history.routes.ts';
import { PriceHistoryService } from './modules/price-history/price-history.service.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS, type LedgerIndexes } from './modules/read-model/ledger-indexes.ts';
import type { ReadModelOptions } from './modules/read-model/plan.ts';
import { ReadModelRepository } from './modules/read-model/read-model.repository.ts';
import { RecycleRepository } from './modules/recycle/recycle.repository.ts';
import { recycleRoutes } from './modules/recycle/recycle.routes.ts';
import { RecycleService } from './modules/recycle/recycle.service.ts';
import { RemindersRepository } from './modules/reminders/reminders.repository.ts';
import { remindersRoutes } from './modules/reminders/reminders.routes.ts';
import { DEFAULT_REMINDER_HOUR, RemindersService } from './modules/reminders/reminders.service.ts';
import { ScheduleRunner } from './modules/schedules/schedule-runner.ts';
import { SchedulesRepository } from './modules/schedules/schedules.repository.ts';
import { schedulesRoutes } from './modules/schedules/schedules.routes.ts';
import { SchedulesService } from './modules/schedules/schedules.service.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { StatsService } from './modules/stats/stats.service.ts';
import { TokensRepository } from './modules/tokens/tokens.repository.ts';
import { tokensRoutes } from './modules/tokens/tokens.routes.ts';
import { TokensService } from './modules/tokens/tokens.service.ts';
import { trendsRoutes } from './modules/trends/trends.routes.ts';
import { TrendsService } from './modules/trends/trends.service.ts';
import { UsersRepository } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { UsersService } from './modules/users/users.service.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerBodyParsing } from './plugins/body.ts';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors.ts';
import { createRateLimit, registerHeavyWork } from './plugins/fairness.ts';
import { routeGroups } from './plugins/ledger.ts';
import { listCache } from './plugins/list-cache.ts';
import { compiledSerializer, registerOpenApi } from './plugins/openapi.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerWebApp } from './plugins/web.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** The index of each ledger (docs/decisions/0405-ledger-index.md); `main.ts` preloads them. */
    ledgerIndexes: LedgerIndexes;
    /** The daily e-mail digest, run by the hourly jobs (`main.ts`). */
    reminders: RemindersService;
    /** Mail sent in the background (verification links, notices); `settled()` waits for it. */
    outbox: Outbox;
    /** The notification outbox's sender (docs/decisions/1150-notification-outbox.md): `main.ts` starts its loop. */
    notifications: NotificationSender;
    /** The recurring invoices' runner, run by the hourly jobs (`main.ts`) and after each schedule change. */
    schedules: ScheduleRunner;
    /** Readings of bills this process takes and reads (`idle()` waits for them). */
    billReadings: BillReadingService;
    /** Where attachment files live (lib/file-store.ts): the disk under the data directory, or an S3 bucket. */
    files: FileStore;
    /** Work outside requests (main.ts: the hourly jobs, the index preload) that must end before the database closes. */
    finishBeforeClose: (work: () => Promise<unknown>) => void;
  }
}

export interface BuildOptions {
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: NodeJS.WritableStream;
  /** The thresholds of the read model's large-ledger paths (tests lower them to reach those paths). */
  readModel?: Partial<ReadModelOptions>;
  /** How bills are read (tests hand one that holds a reading, to stand for a process that stops mid-reading). */
  readBill?: BillFileReader;
  /** Called with each statement the app's connection runs (tests count a request's round trips). */
  onStatement?: (sql: string) => void;
}

/**
 * Fastify 5 answers a hop count by trusting nobody, so a count becomes the classic rule here: the nearest
 * `hops` addresses of the forwarding chain (the socket's first) are proxies.
 */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** Builds the whole application: database (migrated), plugins and routes. Never listens. */
/** A request path as the logs show it: the calendar feed's and an invitation's tokens masked. */
const maskSecretsInPath = (path: string) => maskInvitationToken(maskCalendarToken(path));

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const db = createDatabase(config.database, options.onStatement ? { onStatement: options.onStatement } : {});
  await migrateToLatest(db);

  const limits = resolvedLimits(config);
  const app = Fastify({
    bodyLimit: limits.jsonBodyBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // A path Fastify cannot route (bad percent-escape, overlong parameter) is refused before any hook runs.
    frameworkErrors: answerFrameworkError,
    // Log lines: format, request ids, one line per request, no secrets (lib/logger.ts).
    ...loggerOptions({
      level: config.logLevel,
      format: resolveLogFormat(config.logFormat ?? 'auto', options.logStream ?? process.stdout),
      ...(options.logStream ? { stream: options.logStream } : {}),
      maskPath: maskSecretsInPath,
      quietRoutes: ['/api/v1/health'],
    }),
  });
  registerRequestLogging(app, maskSecretsInPath);
  app.decorate('db', db);
  app.decorate('config', config);
  const readModel = new ReadModelRepository(
    db,
    {
      ...options.readModel,
      ledgerIndex: {
        ...DEFAULT_LEDGER_INDEX_OPTIONS,
        maxBytes: config.ledgerIndexMb * 1024 * 1024,
        savedDir: config.ledgerIndexDir === undefined ? join(config.dataDir, 'ledger-indexes') : config.ledgerIndexDir,
        ...options.readModel?.ledgerIndex,
      },
    },
    app.log,
  );
  app.decorate('ledgerIndexes', readModel.indexes);
  const probe = databaseProbe(config.database, db);
  app.addHook('onClose', async () => {
    probe.close();
    await closeDatabase(db);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(compiledSerializer);

  registerBodyParsing(app);

  await registerSecurity(app);
  await registerOpenApi(app);
  registerAuth(app, { secret: config.jwtSecret, db, now: config.now, onUser: createRateLimit(limits) });
  const sendApp = await registerWebApp(app, config.webRoot);
  registerErrorHandling(app, sendApp);

  // The entities' overview and schedules per ledger and data version: the Entities page and the due reads share them.
  const entitySnapshots = new EntitySnapshots(db);
  const due = new DueRepository(db, readModel.indexes, entitySnapshots);
  const mailer = config.mail ? createMailer(config.mail) : null;
  const outbox = new Outbox(mailer, app.log);
  app.decorate('outbox', outbox);
  if (mailer) {
    app.addHook('onClose', async () => {
      await outbox.settled();
      mailer.close();
    });
  }
  const authRepository = new AuthRepository(db);
  const addresses = new EmailVerificationService(
    new EmailVerificationRepository(db),
    authRepository,
    outbox,
    config.now,
  );
  /** The app's address for links in mail: `PUBLIC_URL`, else where the request came (honouring `TRUST_PROXY`). */
  const appUrl = (request: { protocol: string; host: string }) =>
    config.publicUrl ?? `${request.protocol}://${request.host}`;
  const attachmentsConfig = config.attachments ?? { dir: join(config.dataDir, 'attachments'), s3: null };
  const files = createFileStore(attachmentsConfig.dir, attachmentsConfig.s3);
  app.decorate('files', files);
  app.addHook('onClose', async () => files.close?.());
  // Notifications: channels, the durable outbox and its sender (docs/decisions/1150-notification-outbox.md).
  const notificationsRepo = new NotificationsRepository(db);
  const secretBox = new SecretBox(config.mfaKey);
  const vapid = vapidKeys(notificationsRepo, secretBox, config.now);
  // Made (once per database) at start, so no read ever writes it. A pair sealed under another MFA_KEY cannot be
  // opened: the server still starts, and web push fails with the reason in the log, as two-factor secrets do.
  await vapid().catch((err: unknown) => app.log.error({ err }, VAPID_SEALED_ELSEWHERE));
  const timeoutMs = (config.notifyTimeoutSeconds ?? DEFAULT_NOTIFY_TIMEOUT_SECONDS) * 1000;
  const notificationSender = new NotificationSender(
    notificationsRepo,
    secretBox,
    {
      outbound: { allowPrivate: config.notifyAllowPrivate ?? false, timeoutMs },
      mailer,
      vapid,
      vapidSubject: config.publicUrl ?? `mailto:${config.mail?.from.replace(/^.*<|>.*$/g, '') ?? 'billfold@localhost'}`,
      now: config.now,
    },
    { leaseMs: 3 * timeoutMs, pollMs: 2000, log: app.log },
  );
  app.decorate('notifications', notificationSender);
  const reminders = new RemindersService(new RemindersRepository(db), due, addresses, {
    mailer,
    hourUtc: config.reminderHourUtc ?? DEFAULT_REMINDER_HOUR,
    appUrl: config.publicUrl ?? null,
    now: config.now,
    wake: () => notificationSender.wake(),
  });
  app.decorate('reminders', reminders);
  const notifications = new NotificationsService(notificationsRepo, secretBox, notificationSender, {
    allowPrivate: config.notifyAllowPrivate ?? false,
    emailConfigured: mailer !== null,
    vapid,
    now: config.now,
  });
  // Readings of bills (docs/decisions/1165-readings-in-the-database.md): this process reads the files it takes.
  const billReadings = new BillReadingService(
    new BillReadingRepository(db),
    files.tempDir,
    config.now,
    app.log,
    options.readBill,
  );
  app.decorate('billReadings', billReadings);
  const schedules = new SchedulesRepository(db);
  const scheduleRunner = new ScheduleRunner(schedules, config.priceIncreasePercent);
  app.decorate('schedules', scheduleRunner);

  await app.register(
    async (api) => {
      registerHeavyWork(api, limits);
      const mfa = new MfaService(new MfaRepository(db), authRepository, new SecretBox(config.mfaKey), config.now);
      const auth = new AuthService(authRepository, mfa, addresses, {
        signAccessToken: app.signAccessToken,
        now: config.now,
        refreshReuseSeconds: config.refreshReuseSeconds,
        passwordLogin: config.passwordLogin ?? true,
      });
      const calendar = new CalendarService(new CalendarRepository(db), due, authRepository, config.now);
      // A forgotten password, by a link to the confirmed address (docs/decisions/0723-password-reset.md).
      const passwordReset = new PasswordResetService(
        new PasswordResetRepository(db),
        authRepository,
        calendar,
        outbox,
        config.publicUrl ?? null,
        config.now,
      );
      // Sign-in with an identity provider (docs/decisions/0722-openid-connect-sign-in.md).
      const oidc = new OidcService(authRepository, auth, {
        config: config.oidc ?? null,
        passwordLogin: config.passwordLogin ?? true,
        passwordReset: passwordReset.available,
        secret: config.jwtSecret,
        outbox,
        now: config.now,
      });
      const bills = new BillsService(new BillsRepository(db), entitySnapshots, config.now);
      const entries = new EntriesService(new EntriesRepository(db), config.now, config.priceIncreasePercent);
      const payments = new PaymentsService(new PaymentsRepository(db), config.now);
      // Authentication and ledger access are declared once per group, never route by route (ADR 0107).
      await routeGroups(api, db, {
        public: (open) => {
          healthRoutes(open, probe.check);
          authRoutes(open, auth, appUrl);
          oidcRoutes(open, oidc);
          emailVerifyRoutes(open, addresses);
          passwordResetRoutes(open, passwordReset);
          calendarFileRoutes(open, calendar, config.publicUrl ?? null);
        },
        account: (account) => {
          usersRoutes(
            account,
            new UsersService(new UsersRepository(db), mfa, authRepository, addresses, calendar, config.now),
            appUrl,
          );
          emailVerificationRoutes(account, addresses, appUrl);
          mfaRoutes(account, mfa);
          oidcAccountRoutes(account, oidc);
          // API tokens (docs/decisions/0721-api-tokens.md).
          tokensRoutes(account, new TokensService(new TokensRepository(db), config.now));
          calendarRoutes(account, calendar, config.publicUrl ?? null);
          remindersRoutes(account, reminders);
          notificationsRoutes(account, notifications);
          // Ledgers, members and invitations (docs/api/ledgers.md): about the user, so no ledger header applies.
          const ledgers = new LedgersRepository(db);
          ledgersRoutes(
            account,
            new LedgersService(ledgers, authRepository, calendar, config.now),
            new InvitationsService(ledgers, authRepository, limits, config.now),
            appUrl,
          );
        },
        ledger: async (ledger) => {
          billsRoutes(ledger, bills);
          categoriesRoutes(ledger, new CategoriesService(new CategoriesRepository(db), config.now));
          entriesRoutes(ledger, entries);
          paymentsRoutes(ledger, payments);
          schedulesRoutes(ledger, new SchedulesService(schedules, scheduleRunner, config.now));
          recycleRoutes(
            ledger,
            new RecycleService(new RecycleRepository(db), { bills, entries, payments }, config.now),
          );
          const cache = listCache();
          entriesListRoutes(ledger, new EntriesListService(readModel, config.now), cache);
          statsRoutes(ledger, new StatsService(readModel, config.now));
          trendsRoutes(ledger, new TrendsService(readModel, config.now));
          dueRoutes(ledger, new DueService(due, config.now));
          forecastRoutes(ledger, new ForecastService(due, new ForecastRepository(db), config.now));
          priceHistoryRoutes(ledger, new PriceHistoryService(new PriceHistoryRepository(db)));
          await accountDataRoutes(
            ledger,
            new AccountDataService(new AccountDataRepository(db), config.now, files, limits),
            config.now,
            limits,
          );
          // Files attached to invoices and payments (docs/decisions/1140-attachment-storage.md).
          await attachmentsRoutes(
            ledger,
            new AttachmentsService(new AttachmentsRepository(db), files, limits, config.now),
            limits,
          );
          // Reading a bill to start an invoice (docs/decisions/1148-reading-bills.md).
          await billReadingRoutes(ledger, billReadings, limits);
          await importsRoutes(ledger, new ImportsService(new ImportsRepository(db), config.now, limits), limits);
          // Change history (docs/decisions/0108-change-history.md): reads only; each writer records its own.
          historyRoutes(ledger, new HistoryService(new HistoryReader(db)));
        },
      });
    },
    { prefix: '/api/v1' },
  );
  // Registered last, so it runs first when the app closes (after the requests in flight): what main.ts started
  // outside requests finishes before the database and the mailer close.
  const background: Array<() => Promise<unknown>> = [];
  app.decorate('finishBeforeClose', (work: () => Promise<unknown>) => {
    background.push(work);
  });
  app.addHook('onClose', async () => {
    await Promise.all(background.map((work) => work()));
  });
  // The sender's claims are settled before the database closes.
  app.finishBeforeClose(() => notificationSender.stop());
  // So are this process's readings: the running one is ended, and each one it holds is failed.
  app.finishBeforeClose(() => billReadings.stop());
  return app;
}
