import { Repository } from '../../db/repository.ts';

export class MfaRepository extends Repository {
  findUser(id: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  setPendingSecret(userId: number, sealed: string) {
    return this.db.updateTable('users').set({ mfa_pending_secret: sealed }).where('id', '=', userId).execute();
  }

  /**
   * Switches MFA on with the pending secret, if it is still the one the code was checked against (a second
   * set-up in another tab may have replaced it meanwhile); `false` when it was not.
   */
  async enable(userId: number, pendingSealed: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ mfa_enabled: 1, mfa_secret: pendingSealed, mfa_pending_secret: null, mfa_last_step: step })
      .where('id', '=', userId)
      .where('mfa_enabled', '=', 0)
      .where('mfa_pending_secret', '=', pendingSealed)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records `step` as the last accepted time step, only if it is later than the one recorded: of two uses of
   * one code (in any number of processes) exactly one gets `true`.
   */
  async consumeStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ mfa_last_step: step })
      .where('id', '=', userId)
      .where('mfa_last_step', '<', step)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async replaceRecoveryCodes(userId: number, hashes: string[]) {
    await this.db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
    await this.db
      .insertInto('mfa_recovery_codes')
      .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
      .execute();
  }

  /** Spends an unused recovery code; `false` when there is none with that hash (or it was just spent). */
  async useRecoveryCode(userId: number, hash: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('mfa_recovery_codes')
      .set({ used_at: at })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) >= 1;
  }

  async countUnusedRecoveryCodes(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('mfa_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  insertChallenge(challenge: { user_id: number; token_hash: string; expires_at: number }) {
    return this.db.insertInto('mfa_challenges').values(challenge).execute();
  }

  findChallenge(tokenHash: string) {
    return this.db.selectFrom('mfa_challenges').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks a challenge used only if nobody used it first. */
  async useChallenge(id: number, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('mfa_challenges')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
