import { connect } from 'node:net';
import type { ErrorCode } from '@billfold/contract/error-codes';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, type Limits, loadConfig } from '../src/config.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';
import { snapshot, tableNames } from './security/database-state.ts';

/**
 * Every size and shape limit (config.ts, `Limits`) is a setting, refused with its status and code and a message
 * naming the limit, before the body is read whole; a refused request stores nothing. The limits are set small
 * here so that the files stay small.
 */

const LIMITS: Partial<Limits> = {
  jsonBodyBytes: 4 * 1024,
  csvBytes: 64 * 1024,
  accountFileBytes: 32 * 1024,
  // With the JSON's limit and the archive's header room, what a ledger archive's Content-Length may be (1 MiB + 32 MiB
  // + 32 KiB = 33,824 KiB: account-data.routes.ts).
  ledgerAttachmentBytes: 1024 * 1024,
  csvColumns: 12,
  csvFieldChars: 50,
  importRows: 20,
};

function refusal(res: LightMyRequestResponse, status: number, code: ErrorCode, names: RegExp): void {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ code: string; message: string }>();
  expect(body.code).toBe(code);
  expect(body.message).toMatch(names);
}

/** The raw answer to `head` written on a socket, then `body` written in parts until the server answers. */
function rawExchange(port: number, head: string, parts: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (/\r\n\r\n[\s\S]*\}/.test(answer)) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(head);
    let i = 0;
    const next = () => {
      if (socket.destroyed || i >= parts.length) return;
      socket.write(parts[i++] as string, () => setTimeout(next, 1));
    };
    next();
  });
}

describe('limits are settings', () => {
  it('LIMIT_* set each limit; absent ones keep the defaults; bad values are refused by name', () => {
    const config = loadConfig({
      DATA_DIR: '/tmp/billfold-limits-config',
      LIMIT_CSV_COLUMNS: '50',
      LIMIT_IMPORT_ROWS: '7',
    });
    expect(config.limits).toEqual({ ...DEFAULT_LIMITS, csvColumns: 50, importRows: 7 });
    expect(DEFAULT_LIMITS).toMatchObject({ csvColumns: 200, heavyPerUser: 2, jsonBodyBytes: 256 * 1024 });
    expect(() => loadConfig({ DATA_DIR: '/tmp/billfold-limits-config', LIMIT_CSV_COLUMNS: 'many' })).toThrow(
      /LIMIT_CSV_COLUMNS/,
    );
    expect(() => loadConfig({ DATA_DIR: '/tmp/billfold-limits-config', LIMIT_HEAVY_PER_USER: '0' })).toThrow(
      /LIMIT_HEAVY_PER_USER/,
    );
  });
});

describe.each(dialects)('limits on %s', (dialect) => {
  let t: TestApp;
  let me: Session;
  let tables: string[];
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(dialect, { limits: LIMITS });
    me = await signUp(t.app);
    tables = await tableNames(t.app.db);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  const upload = (app: FastifyInstance, url: string, content: string | Buffer) => {
    const body = multipart({ name: 'limits.csv', content });
    return app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: { ...me.headers, ...body.headers },
      payload: body.payload,
    });
  };
  /** Runs `refused` and checks that no table changed. */
  const storesNothing = async (refused: () => Promise<void>) => {
    const before = await snapshot(t.app.db, tables);
    await refused();
    expect(await snapshot(t.app.db, tables)).toEqual(before);
  };
  const csv = (header: string[], rows: string[][]) =>
    `${[header, ...rows].map((cells) => cells.join(',')).join('\n')}\n`;
  const rowsOf = (n: number) =>
    Array.from({ length: n }, (_, i) => [`2026-01-${String((i % 28) + 1).padStart(2, '0')}`, `Power ${i}`, '-12.00']);

  it('a JSON body over LIMIT_JSON_BODY_BYTES is 413 BODY_TOO_LARGE naming the limit', async () => {
    await storesNothing(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/bills',
        headers: me.headers,
        payload: { name: 'Power', category: 'Utilities', pad: 'x'.repeat(5 * 1024) },
      });
      refusal(res, 413, 'BODY_TOO_LARGE', /limit of 4 KiB/);
    });
  });

  it('refuses by Content-Length before the body is sent, and counts a chunked body as it streams in', async () => {
    await storesNothing(async () => {
      // A 10 GiB body is announced and never sent: the answer comes anyway, naming the largest ledger archive.
      const announced = await rawExchange(
        port,
        `POST /api/v1/account/import HTTP/1.1\r\nHost: x\r\nAuthorization: ${me.headers.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n`,
      );
      expect(announced).toMatch(/^HTTP\/1.1 413/);
      expect(announced).toContain('"code":"BODY_TOO_LARGE"');
      expect(announced).toContain('limit of 33824 KiB');
      const form = await rawExchange(
        port,
        `POST /api/v1/imports/preview HTTP/1.1\r\nHost: x\r\nAuthorization: ${me.headers.authorization}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n`,
      );
      expect(form).toMatch(/^HTTP\/1.1 413/);
      expect(form).toContain('"code":"BODY_TOO_LARGE"');
      // Chunked, without a length: refused once past the limit, long before the 1 MiB that was on its way.
      const chunk = `2000\r\n${' '.repeat(0x2000)}\r\n`;
      const chunked = await rawExchange(
        port,
        `POST /api/v1/account/import HTTP/1.1\r\nHost: x\r\nAuthorization: ${me.headers.authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        Array.from({ length: 128 }, () => chunk),
      );
      expect(chunked).toMatch(/^HTTP\/1.1 413/);
      expect(chunked).toContain('limit of 32 KiB');
    });
  });

  it('an account file over LIMIT_ACCOUNT_FILE_BYTES is 413; within it, its own checks apply', async () => {
    await storesNothing(async () => {
      const big = { format: 'billfold-account', version: 2, pad: 'x'.repeat(40 * 1024) };
      refusal(
        await t.app.inject({ method: 'POST', url: '/api/v1/account/import', headers: me.headers, payload: big }),
        413,
        'BODY_TOO_LARGE',
        /limit of 32 KiB/,
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/account/import',
        headers: { ...me.headers, 'content-type': 'application/json' },
        payload: '{"format":"billfold-account",',
      });
      refusal(res, 400, 'MALFORMED_JSON', /not valid JSON/);
    });
  });

  it('a CSV file over LIMIT_CSV_BYTES is 413 naming the limit, on preview and import', async () => {
    await storesNothing(async () => {
      const big = csv(['Date', 'Entity', 'Amount'], rowsOf(20)).padEnd(65 * 1024, ' ');
      for (const url of ['/imports/preview', '/imports'])
        refusal(
          await upload(t.app, url, big),
          413,
          'BODY_TOO_LARGE',
          /^The file is larger than the limit of 64 KiB\.$/,
        );
    });
  });

  it('more columns than LIMIT_CSV_COLUMNS is 400 TOO_MANY_COLUMNS, in the header or any row', async () => {
    await storesNothing(async () => {
      const wide = Array.from({ length: 13 }, (_, i) => `Column ${i}`);
      for (const url of ['/imports/preview', '/imports']) {
        refusal(
          await upload(t.app, url, csv(wide, rowsOf(2))),
          400,
          'TOO_MANY_COLUMNS',
          /^Line 1 has more than 12 columns, the limit\./,
        );
        // The attack of issue 26: a header of (here) 20,000 columns, refused without parsing it.
        refusal(
          await upload(t.app, url, `${'c,'.repeat(20_000)}c\n1\n`),
          400,
          'TOO_MANY_COLUMNS',
          /more than 12 columns/,
        );
        const rows = [...rowsOf(3), [...(rowsOf(1)[0] as string[]), ...Array.from({ length: 10 }, () => 'x')]];
        refusal(
          await upload(t.app, url, csv(['Date', 'Entity', 'Amount'], rows)),
          400,
          'TOO_MANY_COLUMNS',
          /^Line 5 has more/,
        );
      }
      // A quoted comma is no column.
      const quoted = await upload(
        t.app,
        '/imports/preview',
        csv(['Date', 'Entity', `"${','.repeat(30)}"`, 'Amount'], [['2026-01-05', 'Power', 'x', '-1.00']]),
      );
      expect(quoted.statusCode, quoted.body).toBe(200);
    });
  });

  it('a field longer than LIMIT_CSV_FIELD_CHARS is 400 FIELD_TOO_LONG naming its line', async () => {
    await storesNothing(async () => {
      for (const url of ['/imports/preview', '/imports']) {
        const long = csv(
          ['Date', 'Entity', 'Amount', 'Description'],
          [
            ['2026-01-05', 'Power', '-1.00', 'ok'],
            ['2026-01-06', 'Power', '-1.00', 'y'.repeat(51)],
          ],
        );
        refusal(
          await upload(t.app, url, long),
          400,
          'FIELD_TOO_LONG',
          /^Line 3 has a field longer than 50 characters, the limit\.$/,
        );
        // One field as long as the whole file allows: refused once the record passes columns × field characters.
        const huge = `Date,Entity,Amount\n2026-01-05,"${'z'.repeat(60_000)}",-1.00\n`;
        refusal(await upload(t.app, url, huge), 400, 'FIELD_TOO_LONG', /longer than 50 characters/);
      }
      const exact = csv(
        ['Date', 'Entity', 'Amount', 'Description'],
        [['2026-01-05', 'Power', '-1.00', 'y'.repeat(50)]],
      );
      expect((await upload(t.app, '/imports/preview', exact)).statusCode).toBe(200);
    });
  });

  it('more data rows than LIMIT_IMPORT_ROWS is 400 TOO_MANY_ROWS; exactly the limit is read', async () => {
    await storesNothing(async () => {
      for (const url of ['/imports/preview', '/imports'])
        refusal(
          await upload(t.app, url, csv(['Date', 'Entity', 'Amount'], rowsOf(21))),
          400,
          'TOO_MANY_ROWS',
          /^The file has more than 20 rows, the limit\./,
        );
    });
    const preview = await upload(t.app, '/imports/preview', csv(['Date', 'Entity', 'Amount'], rowsOf(20)));
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json<{ rowCount: number }>().rowCount).toBe(20);
  });
});
