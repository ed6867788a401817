import type { z } from 'zod';
import { ownValue } from './own-keys.ts';

/** What a value of each JSON type is called in a message. */
const KIND: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function limit(origin: string, bound: number | bigint): string {
  if (origin === 'string') return `${bound} character${bound === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return `${bound} item${bound === 1 ? '' : 's'}`;
  return String(bound);
}

/**
 * zod's own messages ("Invalid input: expected number, received string") in words a user can act on, phrased to
 * follow the field's name ("id must be a whole number"). Messages a schema gives itself take precedence.
 */
export const plainMessages: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'is required';
      return `must be ${ownValue(KIND, String(issue.expected)) ?? issue.expected}`;
    case 'too_big':
      return `must be at most ${limit(issue.origin, issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      return `must be at least ${limit(issue.origin, issue.minimum)}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return 'has the wrong format';
    case 'invalid_union':
      return 'has the wrong type';
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return undefined;
  }
};
