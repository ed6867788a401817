import { Repository } from '../../db/repository.ts';

/** The ledger's starting balance for the forecast (`ledger_forecasts`). */
export class ForecastRepository extends Repository {
  async startingBalance(ledgerId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('ledger_forecasts')
      .select('starting_balance_cents')
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
    return row?.starting_balance_cents == null ? null : Number(row.starting_balance_cents);
  }

  async setStartingBalance(ledgerId: number, cents: number | null, at: number): Promise<void> {
    await this.db
      .insertInto('ledger_forecasts')
      .values({ ledger_id: ledgerId, starting_balance_cents: cents, updated_at: at })
      .onConflict((oc) => oc.column('ledger_id').doUpdateSet({ starting_balance_cents: cents, updated_at: at }))
      .execute();
  }
}
