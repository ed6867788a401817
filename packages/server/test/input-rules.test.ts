import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { attach, pdfFile } from './helpers/attachments.ts';
import { type Api, createBill, createEntry, createPayment, request } from './helpers/domain.ts';
import { STRONG_PASSWORD, signUp, userData } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';
import { apiRoutes } from './helpers/route-table.ts';
import { snapshot } from './security/database-state.ts';

/**
 * What the API accepts as input, rule by rule across every route and field it applies to
 * (docs/decisions/0102-text-characters.md, 0103-input-form-and-messages.md).
 */
describe.each(dialects)('input rules on %s', (dialect) => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    // A channel's receiver on this machine is allowed: no channel here is sent anything.
    t = await createTestApp(dialect, { notifyAllowPrivate: true });
    api = { app: t.app, session: await signUp(t.app) };
  });
  afterAll(() => t.close());

  /** Every row of the tables a refused request could have written. */
  const storedRows = () =>
    snapshot(t.app.db, [
      'users',
      'bills',
      'entries',
      'payments',
      'ledgers',
      'api_tokens',
      'notification_channels',
      'attachments',
      'imports',
    ]);

  describe('bodies are JSON', () => {
    it('every route that takes a body answers a body of another content type with 415, storing nothing', async () => {
      // A ledger file is told by its bytes, whatever the type it is sent with (docs/decisions/1160-ledger-archive.md):
      // test/ledger-archive.test.ts sends one as JSON and as a tar.
      const routes = apiRoutes(t.app).filter(
        (r) => (r.startsWith('POST ') || r.startsWith('PUT ')) && r !== 'POST /api/v1/account/import',
      );
      expect(routes.length).toBeGreaterThan(6);
      const before = await storedRows();
      for (const route of routes) {
        const [method, path = ''] = route.split(' ') as ['POST' | 'PUT', string];
        for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
          const res = await t.app.inject({
            method,
            url: path.replace(':id', '1'),
            headers: { ...api.session.headers, 'content-type': type },
            payload: JSON.stringify({
              name: 'Plain',
              username: 'plainuser',
              email: 'p@example.com',
              refreshToken: 'x',
            }),
          });
          expect({ route, type, status: res.statusCode }).toEqual({ route, type, status: 415 });
          expect(res.json().message).toContain('application/json');
        }
      }
      expect(await storedRows()).toEqual(before);
    });

    it('a request without a body needs no content type (refresh by query, as the original client posts it)', async () => {
      const s = await signUp(t.app);
      for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/json' }]) {
        const session = await signUp(t.app);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/auth/refresh?refreshToken=${session.refreshToken}`,
          headers,
        });
        expect({ headers, status: res.statusCode }).toEqual({ headers, status: 200 });
      }
      expect(s.refreshToken).toBeTruthy();
    });

    it('says what is wrong with a body that is not UTF-8, not JSON, or uses a prototype key', async () => {
      const post = (payload: string | Buffer) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/bills',
          headers: { ...api.session.headers, 'content-type': 'application/json' },
          payload,
        });
      const bytes = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
      expect((await post(bytes)).json()).toMatchObject({
        statusCode: 400,
        message: 'The request body is not valid UTF-8 text.',
      });
      expect((await post('{"name":')).json().message).toMatch(/^The request body is not valid JSON: /);
      for (const key of ['__proto__', 'constructor']) {
        const res = await post(`{"name":"Proto","${key}":{"admin":true}}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(`The request body must not contain the key "${key}".`);
      }
      const missing = await request(api, 'POST', '/bills');
      expect(missing.json().message).toBe('The request body is required.');
    });
  });

  describe('money is a JSON number', () => {
    it('every money field of a body refuses text, "12.50" and "1e2" alike, and takes the number', async () => {
      const entry = await createEntry(api);
      const payment = await createPayment(api, { entryId: entry.entryId });
      const bodies: [string, 'POST' | 'PUT', string, Record<string, unknown>][] = [
        [
          'new invoice',
          'POST',
          '/entries/new',
          { billId: entry.billId, date: '2026-11-01', flow: 'income', services: '' },
        ],
        ['invoice edit', 'PUT', '/entries/edit', { entryId: entry.entryId }],
        [
          'new payment',
          'POST',
          '/payments',
          { entryId: entry.entryId, date: '2026-11-02', type: 'cash', medium: 'person' },
        ],
        ['payment edit', 'PUT', '/payments', { paymentId: payment.paymentId }],
      ];
      for (const [label, method, url, body] of bodies) {
        for (const amount of ['12.50', '1e2', '12']) {
          const res = await request(api, method, url, { ...body, amount });
          expect({ label, amount, status: res.statusCode }).toEqual({ label, amount, status: 400 });
          expect(res.json().message).toBe('Amount must be a JSON number such as 12.5, not text in quotes.');
        }
        const ok = await request(api, method, url, { ...body, amount: 12.5 });
        expect({ label, status: ok.statusCode }).toEqual({ label, status: method === 'POST' ? 201 : 200 });
        expect(ok.json().amount).toBe(12.5);
      }
    });

    it('money in a query string is decimal text', async () => {
      const res = await request(api, 'GET', '/entries?min=12.50&max=100');
      expect(res.statusCode).toBe(200);
      const bad = await request(api, 'GET', '/entries/stats?min=1e2');
      expect(bad.json().message).toBe('Amount must be a number from 0 to 999999999.99 with at most 2 decimals.');
    });
  });

  describe('characters in text', () => {
    /** Every free-text field, as a request with `value` in it. */
    const freeText = (entry: { entryId: number; billId: number }, paymentId: number) =>
      [
        ['services (new)', 'POST', '/entries/new', (v: string) => ({ ...newEntry(entry.billId), services: v })],
        ['services (edit)', 'PUT', '/entries/edit', (v: string) => ({ entryId: entry.entryId, services: v })],
        ['notes (new)', 'POST', '/payments', (v: string) => ({ ...newPayment(entry.entryId), notes: v })],
        ['notes (edit)', 'PUT', '/payments', (v: string) => ({ paymentId, notes: v })],
      ] as const;
    const newEntry = (billId: number) => ({ billId, date: '2026-11-01', flow: 'income', amount: 1 });
    const newPayment = (entryId: number) => ({
      entryId,
      date: '2026-11-01',
      amount: 1,
      type: 'cash',
      medium: 'person',
    });

    /** Every name field: entity names (new, rename, restore under another name) and email addresses. */
    const names = (billId: number) =>
      [
        ['entity name (new)', 'POST', '/bills', (v: string) => ({ name: v })],
        ['entity name (rename)', 'PUT', '/bills', (v: string) => ({ id: billId, name: v })],
        ['email (sign-up)', 'POST', '/auth/create', (v: string) => ({ ...userData(), email: `a${v}b@example.com` })],
        [
          'email (change)',
          'PUT',
          '/user',
          (v: string) => ({ password: STRONG_PASSWORD, newEmail: `a${v}b@example.com` }),
        ],
      ] as const;

    /** A request with `value` in the field, sent as the api's user. */
    type Send = (value: string) => Promise<LightMyRequestResponse>;
    const json =
      (method: 'POST' | 'PATCH', url: string, body: (v: string) => Record<string, unknown>): Send =>
      (v) =>
        request(api, method, url, body(v));
    /** The other names, each by its route's real request: ledgers, API tokens, notification channels. */
    const otherNames = async (): Promise<[string, Send][]> => {
      const ledger = await request(api, 'POST', '/ledgers', { name: 'Shared' });
      const channel = await request(api, 'POST', '/notification-channels', {
        kind: 'webhook',
        name: 'Hook',
        url: 'http://127.0.0.1:9/hook',
        events: ['due_soon'],
      });
      expect([ledger.statusCode, channel.statusCode], channel.body).toEqual([201, 201]);
      const webhook = { kind: 'webhook', url: 'http://127.0.0.1:9/hook', events: ['due_soon'] };
      return [
        ['ledger name (new)', json('POST', '/ledgers', (v) => ({ name: v }))],
        ['ledger name (rename)', json('PATCH', `/ledgers/${ledger.json().id}`, (v) => ({ name: v }))],
        ['API token name', json('POST', '/tokens', (v) => ({ name: v, scope: 'read' }))],
        ['channel name (new)', json('POST', '/notification-channels', (v) => ({ ...webhook, name: v }))],
        ['channel name (change)', json('PATCH', `/notification-channels/${channel.json().id}`, (v) => ({ name: v }))],
      ];
    };
    /** File names, sent as a browser sends them (the form's `filename`): an attachment's, a CSV import's. */
    const fileNames = (entryId: number): [string, Send][] => [
      ['attachment file name', (v) => attach(api, 'entries', entryId, pdfFile(), `${v}.pdf`)],
      [
        'CSV import file name',
        (v) => {
          const form = multipart({ name: `${v}.csv`, content: 'Date,Entity,Amount\n2026-01-05,Power Co,-12\n' });
          return t.app.inject({
            method: 'POST',
            url: '/api/v1/imports',
            headers: { ...api.session.headers, ...form.headers },
            payload: form.payload,
          });
        },
      ],
    ];

    const refusedEverywhere: [string, string, RegExp][] = [
      ['a lone surrogate', 'x\ud800y', /could not be read/],
      ['U+FFFD from bytes that were not UTF-8', 'x\ufffdy', /could not be read/],
      ['a right-to-left override', 'Acme\u202Eoc', /U\+202E, an invisible character that reverses/],
      ['a left-to-right isolate', 'a\u2066b', /U\+2066/],
      ['a zero-width space', 'Ac\u200Bme', /U\+200B, an invisible character/],
      ['a byte order mark', 'Ac\uFEFFme', /U\+FEFF/],
      ['a line separator', 'a\u2028b', /U\+2028/],
      ['a C1 control character', 'a\u0085b', /control characters/],
    ];
    const refusedInNames: [string, string, RegExp][] = [
      ['a zero-width joiner', 'Ac\u200Dme', /U\+200D, an invisible character that makes names look alike/],
      ['a right-to-left mark', 'Acme\u200F', /U\+200F/],
      ['a soft hyphen', 'Ac\u00ADme', /U\+00AD/],
      ['a Hangul filler', 'Acme\u3164', /U\+3164/],
      ['a no-break space', 'Acme\u00A0Co', /must use plain spaces, not U\+00A0/],
      ['an ideographic space', 'Acme\u3000Co', /U\+3000/],
      ['a line break', 'Acme\nCo', /one line/],
    ];

    it('every string field refuses unreadable, direction-reversing and invisible characters with a 400', async () => {
      const entry = await createEntry(api);
      const payment = await createPayment(api, { entryId: entry.entryId });
      const bill = await createBill(api);
      const session = await signUp(t.app);
      const before = await storedRows();
      const fields = [...freeText(entry, payment.paymentId), ...names(bill.id)];
      for (const [field, method, url, body] of fields) {
        for (const [what, value, message] of refusedEverywhere) {
          const headers = url === '/user' ? session.headers : api.session.headers;
          const res = await t.app.inject({ method, url: `/api/v1${url}`, headers, payload: body(value) });
          expect({ field, what, status: res.statusCode }).toEqual({ field, what, status: 400 });
          expect(res.json().message, `${field}: ${what}`).toMatch(message);
        }
      }
      expect(await storedRows()).toEqual(before);
      const sent = [...(await otherNames()), ...fileNames(entry.entryId)];
      const beforeSent = await storedRows();
      for (const [field, send] of sent) {
        for (const [what, value, message] of refusedEverywhere) {
          const res = await send(value);
          expect({ field, what, status: res.statusCode }).toEqual({ field, what, status: 400 });
          expect(res.json().message, `${field}: ${what}`).toMatch(message);
        }
      }
      expect(await storedRows()).toEqual(beforeSent);
      // Each takes a plain name: the refusals above are the rule's, not the request's.
      for (const [field, send] of sent) {
        const res = await send(`Plain ${field}`);
        expect({ field, taken: res.statusCode < 300 }, res.body).toEqual({ field, taken: true });
      }
      expect((await request(api, 'GET', '/bills?name=a%E2%80%AEb')).statusCode).toBe(400);
    });

    it('names also refuse every other invisible character, line breaks and unusual spaces', async () => {
      const bill = await createBill(api);
      const sent: [string, Send][] = [
        ...names(bill.id)
          .slice(0, 2)
          .map(([field, method, url, body]): [string, Send] => [field, (v) => request(api, method, url, body(v))]),
        ...(await otherNames()),
        ...fileNames((await createEntry(api)).entryId),
      ];
      const before = await storedRows();
      for (const [field, send] of sent) {
        for (const [what, value, message] of refusedInNames) {
          // The form parser drops a file whose name breaks the line (test/imports.test.ts): no name is stored.
          if (what === 'a line break' && field.endsWith('file name')) continue;
          const res = await send(value);
          expect({ field, what, status: res.statusCode }).toEqual({ field, what, status: 400 });
          expect(res.json().message, `${field}: ${what}`).toMatch(message);
        }
      }
      expect(await storedRows()).toEqual(before);
    });

    it('free text keeps what scripts and emoji need: joiners, direction marks, line breaks', async () => {
      const entry = await createEntry(api);
      const services = 'Family 👨\u200D👩\u200D👧 \u200Fשלום\u200F, می\u200Cخواهم\nline two';
      const edited = await request(api, 'PUT', '/entries/edit', { entryId: entry.entryId, services });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().services).toBe(services);
    });

    it('names are compared in composed form: "Cafe" + U+0301 and "Café" are one name', async () => {
      const first = await request(api, 'POST', '/bills', { name: 'Cafe\u0301 Nord' });
      expect(first.statusCode).toBe(201);
      expect(first.json().name).toBe('Caf\u00e9 Nord');
      const second = await request(api, 'POST', '/bills', { name: 'Caf\u00e9 Nord' });
      expect(second.statusCode).toBe(409);
    });
  });

  describe('messages a user can act on', () => {
    it('every id in a URL: "The id in the URL must be a positive whole number"', async () => {
      const routes = apiRoutes(t.app).filter((r) => r.startsWith('GET ') && r.includes(':id'));
      expect(routes.length).toBeGreaterThanOrEqual(3);
      for (const route of routes) {
        for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999']) {
          const res = await request(api, 'GET', route.slice(4).replace('/api/v1', '').replace(':id', id));
          expect({ route, id, status: res.statusCode }).toEqual({ route, id, status: 400 });
          expect(res.json().message).toBe('The id in the URL must be a positive whole number (1, 2, 3, …).');
        }
      }
    });

    it('every id in a body or query says the same in its own words', async () => {
      const body = await request(api, 'PUT', '/entries/edit', { entryId: 0 });
      expect(body.json().message).toBe('EntryId must be a positive whole number (1, 2, 3, …).');
      const query = await request(api, 'GET', '/payments?entryId=abc');
      expect(query.json().message).toBe('Query parameter entryId must be a positive whole number (1, 2, 3, …).');
    });

    it('paging parameters: one sentence per parameter, never repeated', async () => {
      for (const value of ['99999999999999999999999', '1.5', '-1', 'x']) {
        const res = await request(api, 'GET', `/entries?pageNum=${value}&pageSize=${value}`);
        expect(res.json().message).toBe(
          'Query parameter pageNum must be a whole number from 0 to 10000000. ' +
            'Query parameter pageSize must be a whole number from 1 to 100.',
        );
      }
    });

    it('a password over 128 characters is told so, not the strength rule', async () => {
      const long = `${STRONG_PASSWORD}${'x'.repeat(130)}`;
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/create',
        payload: userData({ password: long }),
      });
      expect(created.json().message).toBe('Password must be at most 128 characters.');
      const session = await signUp(t.app);
      const changed = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/user',
        headers: session.headers,
        payload: { password: STRONG_PASSWORD, newPassword: long },
      });
      expect(changed.json().message).toBe('Password must be at most 128 characters.');
    });

    it('length limits, missing fields and wrong types name the field and the rule', async () => {
      const bill = await createBill(api);
      const cases: [InjectOptions['payload'], string][] = [
        [
          { billId: bill.id, date: '2026-11-01', flow: 'income', amount: 1, services: 'x'.repeat(501) },
          'Services must be at most 500 characters.',
        ],
        [{ billId: bill.id, flow: 'income', amount: 1 }, 'Date is required.'],
        [
          { billId: bill.id, date: '2026-11-01', flow: 'income', amount: true },
          'Amount must be a JSON number such as 12.5, not text in quotes.',
        ],
        [
          { billId: bill.id, date: '2026-11-01', flow: 'sideways', amount: 1 },
          'Flow must be one of: income, expense, internal, incoming, outgoing.',
        ],
      ];
      for (const [payload, message] of cases) {
        const res = await request(api, 'POST', '/entries/new', payload);
        expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_FAILED', message });
      }
      const name = await request(api, 'POST', '/bills', { name: 'n'.repeat(101) });
      expect(name.json().message).toBe('Name must be at most 100 characters.');
      const notes = await request(api, 'POST', '/payments', {
        entryId: (await createEntry(api)).entryId,
        date: '2026-11-01',
        amount: 1,
        type: 'cash',
        medium: 'person',
        notes: 'n'.repeat(1001),
      });
      expect(notes.json().message).toBe('Notes must be at most 1000 characters.');
    });
  });
});
