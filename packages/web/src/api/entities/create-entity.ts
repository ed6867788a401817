import type { Bill, CreateBillBody } from '@billfold/contract/bills';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /bills` → the created entity (409 when the name is taken). */
export function createEntity(body: CreateBillBody): Promise<Outcome<Bill>> {
  return attempt<Bill>('POST', '/bills', { body: { status: 1, ...body } });
}

export function useCreateEntity() {
  return useDomainWrite(createEntity);
}
