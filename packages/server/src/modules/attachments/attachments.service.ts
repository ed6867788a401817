import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Attachment, AttachmentList } from '@billfold/contract/attachments';
import type { Limits } from '../../config.ts';
import type { Actor } from '../../lib/actor.ts';
import { uploadedFileName } from '../../lib/file-names.ts';
import type { ByteRange, FileStore } from '../../lib/file-store.ts';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-error.ts';
import { byteSize } from '../../plugins/body.ts';
import { toAttachment } from './attachment.mapper.ts';
import { ATTACHMENT_MESSAGES } from './attachments.messages.ts';
import type { AttachmentOwner, AttachmentsRepository } from './attachments.repository.ts';
import type { ReceivedFile } from './attachments.upload.ts';
import { sniffType } from './file-types.ts';
import { genericThumbnail, makeThumbnail } from './thumbnails.ts';

export class AttachmentsService {
  constructor(
    private readonly repo: AttachmentsRepository,
    private readonly store: FileStore,
    private readonly limits: Pick<Limits, 'attachmentBytes' | 'ledgerAttachmentBytes'>,
    private readonly now: () => number,
  ) {}

  get tempDir(): string {
    return this.store.tempDir;
  }

  /**
   * Before the body is read: the item exists in the ledger and is live, and a file of at least `atLeastBytes` would
   * fit the ledger's quota.
   */
  async precheck(actor: Actor, owner: AttachmentOwner, atLeastBytes: number): Promise<void> {
    await this.checkOwner(this.repo, actor.ledgerId, owner);
    await this.checkQuota(this.repo, actor.ledgerId, atLeastBytes);
  }

  /**
   * Stores the received file and attaches it. Refusals (type, name, item, quota) come before the store is touched;
   * the temp file is gone afterwards whatever happens.
   */
  async attach(actor: Actor, owner: AttachmentOwner, file: ReceivedFile): Promise<Attachment> {
    const { ledgerId } = actor;
    let contentType: string;
    let fileName: string;
    try {
      if (file.size === 0) throw badRequest(ATTACHMENT_MESSAGES.empty, 'INVALID_FILE');
      const type = sniffType(file.head);
      if (!type) throw badRequest(ATTACHMENT_MESSAGES.wrongType, 'ATTACHMENT_TYPE_NOT_ALLOWED');
      contentType = type;
      fileName = uploadedFileName(file.fileName);
      await this.precheck(actor, owner, file.size);
      await this.store.put(file.key, file.tempFile, file.size);
    } finally {
      await rm(file.tempFile, { force: true });
    }
    // Checked again under the ledger's lock: another upload may have used the room meanwhile. A refusal here leaves
    // the stored file to the sweep (jobs/attachment-sweep.ts), since another row may share its bytes.
    const row = await this.repo.transaction(async (repo) => {
      await repo.lockLedgerRow(ledgerId);
      await this.checkOwner(repo, ledgerId, owner);
      await this.checkQuota(repo, ledgerId, file.size);
      await repo.touch(ledgerId, owner);
      return repo.insert({
        ledger_id: ledgerId,
        entry_id: 'entryId' in owner ? owner.entryId : null,
        payment_id: 'paymentId' in owner ? owner.paymentId : null,
        file_key: file.key,
        file_name: fileName,
        content_type: contentType,
        size: file.size,
        created_by: actor.userId,
        created_at: this.now(),
      });
    });
    return toAttachment(row);
  }

  /** The live item's attachments (404 for an item not in the ledger or in the recycle bin) and the ledger's room. */
  async list(ledgerId: number, owner: AttachmentOwner): Promise<AttachmentList> {
    const found = await this.repo.owner(ledgerId, owner);
    if (!found || found.recycled) throw this.ownerNotFound(owner);
    const [rows, usedBytes] = await Promise.all([this.repo.listOf(ledgerId, owner), this.repo.usedBytes(ledgerId)]);
    return { attachments: rows.map(toAttachment), usedBytes, quotaBytes: this.limits.ledgerAttachmentBytes };
  }

  /** One attachment of a live item of the ledger; 404 otherwise (one in the recycle bin included). */
  async get(ledgerId: number, id: number): Promise<Attachment & { key: string }> {
    const row = await this.repo.get(ledgerId, id);
    if (!row) throw notFound(ATTACHMENT_MESSAGES.attachmentNotFound);
    return { ...toAttachment(row), key: row.file_key };
  }

  /** The stored bytes of a file (or a range of them). */
  read(key: string, range?: ByteRange): Promise<Readable> {
    return this.store.read(key, range);
  }

  /**
   * The attachment's thumbnail: a picture's own, scaled down, made once and kept in the store beside the file
   * (`<key>.thumb`); for other types, or a picture that cannot be decoded, a generic sheet naming the type.
   */
  async thumbnail(ledgerId: number, id: number): Promise<{ contentType: string; body: Readable | string }> {
    const found = await this.get(ledgerId, id);
    const generic = { contentType: 'image/svg+xml', body: genericThumbnail(found.contentType) };
    if (!found.thumbnail) return generic;
    const key = `${found.key}.thumb`;
    if (await this.store.head(key)) return { contentType: 'image/png', body: await this.store.read(key) };
    const png = await makeThumbnail(await buffer(await this.store.read(found.key)), found.contentType);
    if (!png) return generic;
    await mkdir(this.store.tempDir, { recursive: true });
    const temp = join(this.store.tempDir, `${randomBytes(12).toString('hex')}.part`);
    try {
      await writeFile(temp, png);
      await this.store.put(key, temp, png.length);
    } finally {
      await rm(temp, { force: true });
    }
    return { contentType: 'image/png', body: await this.store.read(key) };
  }

  /**
   * Removes the attachment for good. Its bytes leave the store with the next sweep when no other attachment shares
   * them (docs/decisions/1141-attachment-lifecycle.md).
   */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.repo.transaction(async (repo) => {
      const row = await repo.get(actor.ledgerId, id);
      if (!row) throw notFound(ATTACHMENT_MESSAGES.attachmentNotFound);
      await repo.touch(
        actor.ledgerId,
        row.entry_id === null ? { paymentId: Number(row.payment_id) } : { entryId: Number(row.entry_id) },
      );
      await repo.delete(actor.ledgerId, id);
    });
  }

  private ownerNotFound(owner: AttachmentOwner): HttpError {
    return notFound('entryId' in owner ? ATTACHMENT_MESSAGES.entryNotFound : ATTACHMENT_MESSAGES.paymentNotFound);
  }

  private async checkOwner(repo: AttachmentsRepository, ledgerId: number, owner: AttachmentOwner): Promise<void> {
    const found = await repo.owner(ledgerId, owner);
    if (!found) throw this.ownerNotFound(owner);
    if (found.recycled) throw conflict(ATTACHMENT_MESSAGES.ownerRecycled, 'ITEM_READ_ONLY');
  }

  private async checkQuota(repo: AttachmentsRepository, ledgerId: number, bytes: number): Promise<void> {
    const quota = this.limits.ledgerAttachmentBytes;
    if ((await repo.usedBytes(ledgerId)) + bytes > quota)
      throw new HttpError(413, ATTACHMENT_MESSAGES.quota(byteSize(quota)), {}, 'ATTACHMENT_QUOTA_EXCEEDED');
  }
}
