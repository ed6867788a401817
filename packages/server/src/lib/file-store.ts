import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

/** An object of the store: its key, size and when it was last written (ms). */
export interface StoredObject {
  key: string;
  size: number;
  modifiedAt: number;
}

/** Bytes `start` to `end`, both included (an HTTP range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where attachment files live (docs/decisions/1140-attachment-storage.md): keys are the SHA-256 of the bytes (plus a
 * suffix for derived files such as thumbnails), so the same file is stored once. A file arrives as a finished temp
 * file on local disk (`tempDir`) and is moved into the store whole, so a crash never leaves half a file under a key.
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** A local folder for uploads in progress (on the same file system as the disk store, so a rename is atomic). */
  readonly tempDir: string;
  /** Moves the finished temp file under `key`; the same key again replaces the object with the same bytes. */
  put(key: string, tempFile: string, size: number): Promise<void>;
  /** The object's bytes (or a range of them); rejects when there is no such object. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Whether the object exists, with its size and write time. */
  head(key: string): Promise<StoredObject | null>;
  /** Removes the object; a missing one is no error. */
  remove(key: string): Promise<void>;
  /** Every object of the store. */
  list(): AsyncIterable<StoredObject>;
}

export interface S3Settings {
  /** `S3_URL`: the endpoint of an S3-compatible service (`https://s3.eu-central-1.amazonaws.com`, a MinIO address). */
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Keys are written under this prefix (`S3_PREFIX`, default `attachments/`). */
  prefix: string;
  /** Bucket in the path (`https://host/bucket/key`) rather than the host name; most self-hosted stores need it. */
  forcePathStyle: boolean;
}

/** Only these characters make a key: it names a file on disk and an object in a bucket. */
const KEY = /^[0-9a-f]{64}(?:\.[a-z0-9]+)?$/;

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a store key: ${key}`);
  return key;
}

/** Files under `dir/objects/<first two characters of the key>/<key>`; uploads in progress under `dir/tmp`. */
export class DiskStore implements FileStore {
  readonly kind = 'disk';
  readonly tempDir: string;
  private readonly objects: string;

  constructor(dir: string) {
    this.tempDir = join(dir, 'tmp');
    this.objects = join(dir, 'objects');
  }

  private path(key: string): string {
    return join(this.objects, checkKey(key).slice(0, 2), key);
  }

  async put(key: string, tempFile: string): Promise<void> {
    const path = this.path(key);
    await mkdir(join(path, '..'), { recursive: true });
    await rename(tempFile, path);
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
    // Opened before the answer starts, so a missing file is an error here rather than half an answer.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const s = await stat(this.path(key));
      return { key, size: s.size, modifiedAt: s.mtimeMs };
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    let folders: string[];
    try {
      folders = await readdir(this.objects);
    } catch {
      return;
    }
    for (const folder of folders.sort()) {
      for (const name of (await readdir(join(this.objects, folder))).sort()) {
        if (!KEY.test(name)) continue;
        const s = await stat(join(this.objects, folder, name));
        yield { key: name, size: s.size, modifiedAt: s.mtimeMs };
      }
    }
  }
}

/** Objects `prefix + key` in one bucket of an S3-compatible service, through the AWS SDK. */
export class S3Store implements FileStore {
  readonly kind = 's3';
  readonly tempDir: string;
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    dir: string,
  ) {
    this.tempDir = join(dir, 'tmp');
    this.client = new S3Client({
      endpoint: settings.url,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Plain signed requests: checksums only where the operation needs one (many S3-compatible stores reject the
      // SDK's newer streamed-checksum uploads).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private name(key: string): string {
    return `${this.settings.prefix}${checkKey(key)}`;
  }

  async put(key: string, tempFile: string, size: number): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.name(key),
        Body: createReadStream(tempFile),
        ContentLength: size,
      }),
    );
    await rm(tempFile, { force: true });
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.name(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return answer.Body as Readable;
  }

  async head(key: string): Promise<StoredObject | null> {
    const answer = await this.client.send(
      new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: this.name(key), MaxKeys: 1 }),
    );
    const object = answer.Contents?.find((o) => o.Key === this.name(key));
    return object ? { key, size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 } : null;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.name(key) }));
  }

  async *list(): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.settings.prefix,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        const key = (object.Key ?? '').slice(this.settings.prefix.length);
        if (KEY.test(key)) yield { key, size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): void {
    this.client.destroy();
  }
}

/** The store the settings name: S3 when `s3` is given, else the disk under `dir`. */
export function createFileStore(dir: string, s3: S3Settings | null): FileStore & { close?: () => void } {
  return s3 ? new S3Store(s3, dir) : new DiskStore(dir);
}
