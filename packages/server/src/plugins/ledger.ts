import {
  LEDGER_HEADER,
  LEDGER_OWNER_ONLY_MESSAGE,
  LEDGER_READ_ONLY_MESSAGE,
  type LedgerRole,
} from '@billfold/contract/ledgers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Actor } from '../lib/actor.ts';
import { Batched } from '../lib/batched.ts';
import { badRequest, forbidden, notFound } from '../lib/http-error.ts';
import { ledgerForApiToken } from './auth.ts';

/** What a route needs of the caller's role: `read` (every member), `write` (owner, editor), `owner`. */
export type LedgerAccess = 'read' | 'write' | 'owner';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The request's ledger, the caller's role in it and its data version as the request began, set by the ledger
     * group's hook (data routes only).
     */
    ledger: { id: number; role: LedgerRole; version: number };
    /** `{ ledgerId, userId }`: what the data services' write methods take. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** The role a ledger route needs; without it, `read` for GET and HEAD and `write` for every other method. */
    access?: LedgerAccess;
    /** The group the route was registered in, set by `routeGroups` (the OpenAPI document reads it). */
    routeGroup?: RouteGroup;
  }
}

/** The route groups: no sign-in, a signed-in user, or a signed-in member of the request's ledger. */
export type RouteGroup = 'public' | 'account' | 'ledger';

const LEDGER_NOT_FOUND = 'Ledger not found';
const HEADER = LEDGER_HEADER.toLowerCase();
const LEDGER_ID = /^[1-9][0-9]{0,15}$/;

const WRITERS: readonly LedgerRole[] = ['owner', 'editor'];

/** The access a route needs: its config's, else by method. */
export function accessOf(method: string, access: LedgerAccess | undefined): LedgerAccess {
  return access ?? (method === 'GET' || method === 'HEAD' ? 'read' : 'write');
}

/** A member check: the signed-in user, and the ledger the request names (null: their personal ledger). */
interface MemberKey {
  userId: number;
  ledgerId: number | null;
}

interface MemberRow {
  token_version: number | string;
  ledger_id: number | string | null;
  role: string | null;
  version: number | string | null;
}

/**
 * The member checks of concurrent requests in one statement (`Batched`): per key, the account's `token_version` when
 * it is active, the key's ledger (the one named, else the user's personal ledger) and the user's role when they are a
 * member, and the ledger's data version; no row for an account that is not active. A key finds at most one row of
 * each table: `users` by id, `ledgers` by `personal_user_id`, `ledger_members` by (ledger, user),
 * `ledger_data_versions` by ledger.
 */
async function memberChecks(db: Db, keys: MemberKey[]): Promise<(MemberRow | undefined)[]> {
  const values = keys.map(
    (k, i) => sql`(cast(${i} as bigint), cast(${k.userId} as bigint), cast(${k.ledgerId} as bigint))`,
  );
  // A `values` list's columns are column1, column2, column3 on both databases.
  const { rows } = await sql<MemberRow & { i: number | string }>`
    select k.column1 as i, u.token_version, m.ledger_id, m.role, v.version
    from (values ${sql.join(values)}) as k
    join users u on u.id = k.column2 and u.deactivated_at is null
    left join ledgers l on k.column3 is null and l.personal_user_id = u.id
    left join ledger_members m on m.user_id = u.id and m.ledger_id = coalesce(k.column3, l.id)
    left join ledger_data_versions v on v.ledger_id = m.ledger_id`.execute(db);
  const found: (MemberRow | undefined)[] = keys.map(() => undefined);
  for (const { i, ...row } of rows) found[Number(i)] = row;
  return found;
}

/**
 * The ledger group's one hook (docs/decisions/0107-ledgers.md): the caller authenticated and the request's ledger
 * found, in one statement with the account check (`authenticateWith`, plugins/auth.ts), shared with the requests
 * that arrive while another's is under way (`memberChecks`). The ledger is the one
 * the `Billfold-Ledger` header names, else the caller's personal ledger; the caller's role in it is read from
 * `ledger_members` on every request (one row by its primary key, or the personal ledger by its unique key), so a
 * removed member is refused at once, open sessions included, and nothing is cached before this check. The same
 * statement reads the ledger's data version (`ledger_data_versions`, what the list cache and the ledger index
 * check against). A ledger the caller is not a member of answers 404; a role below what the route needs answers
 * 403 before the body is read.
 */
export function ledgerHook(api: FastifyInstance, db: Db) {
  const checks = new Batched((keys: MemberKey[]) => memberChecks(db, keys));
  /** The ledger the request's header names, null when it names none, undefined when it is not a ledger id. */
  const namedLedger = (request: FastifyRequest): number | null | undefined => {
    const raw = request.headers[HEADER];
    if (raw === undefined) return null;
    const value = Array.isArray(raw) ? raw.join(',') : raw.trim();
    return LEDGER_ID.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : undefined;
  };
  // An API token bound to a ledger works there by default and nowhere else (docs/decisions/0721-api-tokens.md).
  const authenticated = api.authenticateWith((request, userId, named: number | null) =>
    checks.get({ userId, ledgerId: ledgerForApiToken(request.apiToken, named) }),
  );
  return async (request: FastifyRequest): Promise<void> => {
    const named = namedLedger(request);
    const row = await authenticated(request, named ?? null);
    // After the caller is known, as every refusal but a missing or bad session's.
    if (named === undefined) {
      throw badRequest(`${LEDGER_HEADER}: must be a ledger id (a positive whole number)`, 'VALIDATION_FAILED');
    }
    if (row.ledger_id === null || row.role === null) throw notFound(LEDGER_NOT_FOUND);
    const role = row.role as LedgerRole;
    const access = accessOf(request.method, request.routeOptions.config.access);
    if (access === 'owner' && role !== 'owner') throw forbidden(LEDGER_OWNER_ONLY_MESSAGE, 'LEDGER_OWNER_ONLY');
    if (access === 'write' && !WRITERS.includes(role)) throw forbidden(LEDGER_READ_ONLY_MESSAGE, 'LEDGER_READ_ONLY');
    const ledgerId = Number(row.ledger_id);
    request.ledger = { id: ledgerId, role, version: Number(row.version ?? 0) };
    request.actor = { ledgerId, userId: request.userId };
  };
}

/**
 * The three route groups (docs/decisions/0107-ledgers.md): each route is registered in the group whose guard it
 * needs, and the group's hooks run before any hook of the route, so no route states its own guard:
 * - `open`: no sign-in (sign-up, sign-in, refresh, health, a verification link, the calendar feed's file);
 * - `account`: a signed-in user, for what is theirs alone (account, MFA, e-mail, reminders, calendar settings);
 * - `ledger`: a signed-in member of the request's ledger with the role the route needs (all data).
 * `test/ledger-access.test.ts` sends every route without a session and into a stranger's ledger, so a route
 * registered outside its group fails it.
 */
export async function routeGroups(
  api: FastifyInstance,
  db: Db,
  groups: Record<RouteGroup, (scope: FastifyInstance) => void | Promise<void>>,
): Promise<void> {
  const inGroup = (scope: FastifyInstance, group: RouteGroup) =>
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, routeGroup: group };
    });
  await api.register(async (scope) => {
    inGroup(scope, 'public');
    await groups.public(scope);
  });
  await api.register(async (scope) => {
    inGroup(scope, 'account');
    scope.addHook('onRequest', api.authenticate);
    await groups.account(scope);
  });
  api.decorateRequest('ledger', null as never);
  api.decorateRequest('actor', null as never);
  const ledger = ledgerHook(api, db);
  await api.register(async (scope) => {
    inGroup(scope, 'ledger');
    scope.addHook('onRequest', ledger);
    await groups.ledger(scope);
  });
}
