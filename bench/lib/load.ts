import autocannon, { type RawRequest } from 'autocannon';

export interface LoadSpec {
  /** Base URL of the server, e.g. `http://127.0.0.1:4321`. */
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Varies each request (a random id, a fresh body); receives the request autocannon is about to send. */
  vary?: (request: RawRequest) => RawRequest;
  connections: number;
  /** Run for this long… */
  seconds: number;
  /** …or until this many requests were answered (then nothing is left in flight). */
  amount?: number;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  /** Successful requests per second over the whole run. */
  rps: number;
  /** Latencies of 2xx responses, milliseconds (sub-millisecond precision, unlike autocannon's integer histogram). */
  p50: number;
  p99: number;
  mean: number;
  max: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export function median(values: number[]): number {
  return percentile(Float64Array.from(values).sort(), 50);
}

/** Runs autocannon and records every response time itself. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const headers: Record<string, string> = { ...spec.headers };
  let body: string | undefined;
  if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    headers['content-type'] = 'application/json';
  }
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        ...(spec.amount === undefined ? { duration: spec.seconds } : { amount: spec.amount }),
        timeout: 30,
        requests: [
          {
            method: spec.method ?? 'GET',
            path: spec.path,
            headers,
            ...(body === undefined ? {} : { body }),
            ...(spec.vary ? { setupRequest: spec.vary } : {}),
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        const sorted = Float64Array.from(latencies).sort();
        const ok = sorted.length;
        const statusCodes: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
        resolve({
          connections: spec.connections,
          seconds: result.duration,
          requests: ok + result.non2xx,
          rps: ok / result.duration,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          mean: ok === 0 ? Number.NaN : latencies.reduce((a, b) => a + b, 0) / ok,
          max: ok === 0 ? Number.NaN : (sorted[ok - 1] as number),
          non2xx: result.non2xx,
          errors: result.errors,
          statusCodes,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}
