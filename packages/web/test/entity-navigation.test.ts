import { describe, expect, it } from 'vitest';
import { pathAfterEntitySave, pathOfOrigin } from '../src/features/entities/entity-navigation.ts';
import { entityNameProblem } from '../src/lib/entity-form.ts';
import { readEntityOrigin } from '../src/lib/entity-origin.ts';
import { parseRouteId } from '../src/lib/route-id.ts';

describe('edit entity: where Save and Archive go (docs/product.md, Where a save leads)', () => {
  it('goes home once the entity is archived, wherever it came from', () => {
    expect(pathAfterEntitySave({ entityId: 4 }, { billId: 4, archived: true })).toBe('/home');
    expect(pathAfterEntitySave({ invoiceId: 9 }, { billId: 4, archived: true })).toBe('/home');
    expect(pathAfterEntitySave({}, { billId: 4, archived: true })).toBe('/home');
  });

  it('returns a save to the entity or invoice page it came from, else to the entity', () => {
    expect(pathAfterEntitySave({ entityId: 4 }, { billId: 4, archived: false })).toBe('/entities/4');
    expect(pathAfterEntitySave({ invoiceId: 9 }, { billId: 4, archived: false })).toBe('/entries/9');
    expect(pathAfterEntitySave({}, { billId: 4, archived: false })).toBe('/entities/4');
    expect(pathOfOrigin({ invoiceId: 9 }, 4)).toBe('/entries/9');
  });

  it('reads only positive whole ids from the navigation state', () => {
    expect(readEntityOrigin({ entityId: 4 })).toEqual({ entityId: 4 });
    expect(readEntityOrigin({ invoiceId: 9, other: 1 })).toEqual({ invoiceId: 9 });
    expect(readEntityOrigin({ entityId: '4', invoiceId: -1 })).toEqual({});
    expect(readEntityOrigin({ entityId: 1.5 })).toEqual({});
    expect(readEntityOrigin(null)).toEqual({});
    expect(readEntityOrigin('x')).toEqual({});
  });
});

describe('entity name', () => {
  it('is required once trimmed', () => {
    expect(entityNameProblem('  ')).toBe('Entity name cannot be empty.');
    expect(entityNameProblem('')).toBe('Entity name cannot be empty.');
    expect(entityNameProblem(' Gas ')).toBeNull();
  });
});

describe('route ids', () => {
  it('are positive whole numbers', () => {
    expect(parseRouteId('12')).toBe(12);
    for (const text of [undefined, '', '0', '-1', '1.5', 'abc', '01', '99999999999999999']) {
      expect(parseRouteId(text)).toBeNull();
    }
  });
});
