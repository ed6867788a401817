import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Requests to addresses users typed (webhooks, ntfy, Gotify, push endpoints): docs/decisions/1153-outbound-addresses.md.
 * Unless the admin allows private networks (`NOTIFY_ALLOW_PRIVATE`), no request reaches a loopback, private,
 * link-local, carrier-grade NAT, multicast or reserved address: IP literals are checked before connecting, host
 * names at connect time on every address they resolve to (so a name cannot resolve to a public address when
 * checked and a private one when used). Redirects are never followed; every request has a deadline for the whole
 * exchange, and at most 4 KiB of the answer is read.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True for an address no user-typed URL may reach unless private networks are allowed. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** A request the rules refused, or that failed: its message goes into the delivery log as it is. */
export class OutboundError extends Error {}

export interface OutboundOptions {
  allowPrivate: boolean;
  timeoutMs: number;
}

export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  /** At most the first 4 KiB of the answer's body. */
  body: string;
}

const MAX_ANSWER = 4096;

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Refuses a URL that is not http(s) or whose literal address is private; names are checked when connecting. */
export function checkUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundError('not a valid address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('only http and https are used');
  const host = hostOf(url);
  if (!allowPrivate && (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost'))) {
    throw new OutboundError(`${host} is a private or loopback address`);
  }
  return url;
}

/** Resolves every address of `host` (as the connection will) and refuses it when any is private. */
export async function checkHost(text: string, allowPrivate: boolean): Promise<void> {
  const url = checkUrl(text, allowPrivate);
  const host = hostOf(url);
  if (allowPrivate || isIP(host)) return;
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, found) =>
      err ? reject(new OutboundError(`${host}: ${err.code}`)) : resolve(found),
    ),
  );
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw new OutboundError(`${host} resolves to the private address ${bad.address}`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `lookup` for `http.request`: the addresses the socket would use, refused when any is private. */
function guardedLookup(hostname: string, options: LookupAllOptions | object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new OutboundError(`${hostname} resolves to the private address ${bad.address}`), []);
    const first = addresses[0] as LookupAddress;
    if ((options as { all?: boolean }).all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
}

/** POSTs `body` to `url` under the rules above; resolves with the status of the answer, whatever it is. */
export function post(req: OutboundRequest, options: OutboundOptions): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = checkUrl(req.url, options.allowPrivate);
  } catch (err) {
    return Promise.reject(err);
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(body.length) },
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
        // A fresh connection per request: a pooled socket would skip the address check.
        agent: false,
      },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          if (size < MAX_ANSWER) chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_ANSWER) answer.destroy();
        });
        const finish = () => {
          clearTimeout(deadline);
          resolve({
            status: answer.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, MAX_ANSWER).toString('utf8'),
          });
        };
        answer.on('end', finish);
        answer.on('close', finish);
      },
    );
    const deadline = setTimeout(
      () => outgoing.destroy(new OutboundError(`no answer within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
    outgoing.on('error', (err) => {
      clearTimeout(deadline);
      reject(err instanceof OutboundError ? err : new OutboundError(err.message));
    });
    outgoing.end(body);
  });
}
