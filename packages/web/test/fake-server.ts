import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

export interface FakeServer {
  origin: string;
  requests: {
    method: string;
    url: string;
    authorization: string | undefined;
    /** The `Billfold-Ledger` header the call carried (docs/decisions/0107-ledgers.md). */
    ledger: string | undefined;
    contentType: string | undefined;
    body: string;
  }[];
  handle: (handler: Handler) => void;
  close: () => Promise<void>;
}

/** A real HTTP server on a loopback port whose answers each test scripts: failures happen on a real socket. */
export async function startFakeServer(): Promise<FakeServer> {
  let handler: Handler = (_req, res) => res.writeHead(500).end();
  const requests: FakeServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        ledger: request.headers['billfold-ledger'] as string | undefined,
        contentType: request.headers['content-type'],
        body,
      });
      handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      handler = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A JWT-shaped token whose payload says it expires `seconds` from now (the signature is not checked). */
export function fakeJwt(seconds: number, id = 'x'): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256' })}.${encode({ sub: id, exp: Math.floor(Date.now() / 1000) + seconds })}.sig`;
}
