/**
 * `npm run mfa:reset -- <username or email>`: the operator's way back into an account whose owner lost their
 * authenticator and their recovery codes. Turns MFA off (secret, recovery codes and pending sign-ins go); the
 * owner then signs in with the password alone and can set MFA up again. Reads the same configuration as the
 * server (`DATA_DIR`, `DATABASE_URL`), so run it where the server runs, with the same environment.
 */
import { loadConfig } from '../config.ts';
import { closeDatabase, createDatabase, type Db, migrateToLatest } from '../db/database.ts';
import { isProgram } from '../lib/program.ts';
import { AuthRepository } from '../modules/auth/auth.repository.ts';
import { UsersRepository } from '../modules/users/users.repository.ts';

export type ResetOutcome = 'reset' | 'not-enabled' | 'not-found';

export async function resetMfa(db: Db, login: string): Promise<ResetOutcome> {
  const user = await new AuthRepository(db).findUserByLogin(login.trim().toLowerCase());
  if (!user) return 'not-found';
  if (user.mfa_enabled !== 1 && user.mfa_secret === null && user.mfa_pending_secret === null) return 'not-enabled';
  const users = new UsersRepository(db);
  await users.transaction((repo) => repo.turnOffMfa(user.id));
  return 'reset';
}

const MESSAGES: Record<ResetOutcome, (login: string) => string> = {
  reset: (login) => `MFA turned off for ${login}: they sign in with their password and can set it up again.`,
  'not-enabled': (login) => `${login} does not use MFA; nothing changed.`,
  'not-found': (login) => `No account with the username or email ${login}.`,
};

async function main(args: string[]): Promise<number> {
  const login = args[0];
  if (!login || args.length > 1) {
    console.error('Usage: npm run mfa:reset -- <username or email>');
    return 2;
  }
  const db = createDatabase(loadConfig().database);
  try {
    await migrateToLatest(db);
    const outcome = await resetMfa(db, login);
    (outcome === 'not-found' ? console.error : console.log)(MESSAGES[outcome](login));
    return outcome === 'not-found' ? 1 : 0;
  } finally {
    await closeDatabase(db);
  }
}

if (isProgram(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
