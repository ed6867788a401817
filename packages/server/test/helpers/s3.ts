import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/lib/file-store.ts';

export interface TestS3 {
  settings: S3Settings;
  close: () => Promise<void>;
}

/** A real S3-compatible server (s3rver) on 127.0.0.1 with one empty bucket, and the settings that reach it. */
export async function startS3(): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'billfold-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'billfold-test' }],
  });
  const { port } = await server.run();
  return {
    settings: {
      url: `http://127.0.0.1:${port}`,
      bucket: 'billfold-test',
      region: 'us-east-1',
      // s3rver's fixed credentials: it checks the signature of every request made with them.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      prefix: 'attachments/',
      forcePathStyle: true,
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
