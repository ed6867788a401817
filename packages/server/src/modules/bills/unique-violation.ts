/** True for a unique-index violation of SQLite (`SQLITE_CONSTRAINT_UNIQUE`) or PostgreSQL (`23505`). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err)) return false;
  const code = (err as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
