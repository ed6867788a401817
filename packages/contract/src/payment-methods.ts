/** Payment methods are `type|medium` pairs (docs/product.md, Payment methods). */
import { ownValue } from './own-keys.ts';

export const PAYMENT_METHOD_GROUPS = [
  {
    group: 'Electronic',
    codes: [
      'bank|ach',
      'credit|web',
      'credit|person',
      'cyber|web',
      'debit|web',
      'debit|person',
      'other|ewallet',
      'other|service',
    ],
  },
  { group: 'Paper', codes: ['cash|person', 'check|mail', 'check|person'] },
  { group: 'Other', codes: ['other|other'] },
] as const;

export type PaymentMethodCode = (typeof PAYMENT_METHOD_GROUPS)[number]['codes'][number];
export const PAYMENT_METHOD_CODES: readonly PaymentMethodCode[] = PAYMENT_METHOD_GROUPS.flatMap((g) => g.codes);

const PAIR_LABELS: Record<string, string> = {
  'credit|person': 'Credit Card (In Person)',
  'credit|web': 'Credit Card (Online)',
  'debit|person': 'Debit Card (In Person)',
  'debit|web': 'Debit Card (Online)',
  'bank|ach': 'Bank Transfer (ACH/EFT)',
  'check|person': 'Check (In Person)',
  'check|mail': 'Check (Mail)',
  'other|ewallet': 'eWallet (Apple Pay, Google Pay, etc.)',
  'other|service': 'Service (Zelle, PayPal, Venmo, etc.)',
  'other|other': 'Unspecified Method',
};

/** Types whose label does not depend on the medium. */
const TYPE_ONLY_LABELS: Record<string, string> = { cash: 'Cash', cyber: 'Cybercurrency' };

const TYPE_LABELS: Record<string, string> = {
  bank: 'Bank Account',
  cash: 'Cash',
  check: 'Check',
  credit: 'Credit',
  cyber: 'Cybercurrency',
  debit: 'Debit',
  other: 'Other',
};

const MEDIUM_LABELS: Record<string, string> = {
  ach: 'ACH/EFT',
  ewallet: 'eWallet',
  person: 'In Person',
  mail: 'Mail',
  app: 'Mobile App',
  phone: 'Phone',
  service: 'Service',
  web: 'Website',
  other: 'Other',
};

/**
 * Splits `' CREDIT | Web '` into `['credit', 'web']`, and the recycle bin's `'bank / ach'` into `['bank', 'ach']`;
 * a lone type has an empty medium.
 */
export function splitMethod(code: string): [type: string, medium: string] {
  const [type = '', medium = ''] = code.split(/[|/]/).map((part) => part.trim().toLowerCase());
  return [type, medium];
}

export function joinMethod(type: string, medium: string): string {
  return `${type.trim().toLowerCase()}|${medium.trim().toLowerCase()}`;
}

/** The canonical code for a type and medium, or `null` when the pair is not one of the 12 methods. */
export function methodCode(type: string, medium: string): PaymentMethodCode | null {
  const code = joinMethod(type, medium);
  return (PAYMENT_METHOD_CODES as readonly string[]).includes(code) ? (code as PaymentMethodCode) : null;
}

/** Human label of a method code: the table in docs/product.md, Payment methods, else `<type label> - <medium label>`. */
export function paymentMethodLabel(code: string): string {
  const [type, medium] = splitMethod(code);
  const pair = ownValue(PAIR_LABELS, `${type}|${medium}`);
  if (pair) return pair;
  const typeOnly = ownValue(TYPE_ONLY_LABELS, type);
  if (typeOnly) return typeOnly;
  return `${ownValue(TYPE_LABELS, type) ?? 'Other'} - ${ownValue(MEDIUM_LABELS, medium) ?? 'Other'}`;
}
