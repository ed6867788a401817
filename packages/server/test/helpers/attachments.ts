import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import type { Api } from './domain.ts';
import { multipart } from './multipart.ts';

/**
 * A small real PDF (one page, a line of Helvetica text per line of `text`, in Latin-1), different for each `text`.
 * A bill's lines make a bill to read.
 */
export function pdfFile(text = 'Invoice 42'): Buffer {
  const escaped = text.split('\n').map((line) => `(${line.replace(/[\\()]/g, (c) => `\\${c}`)}) '`);
  const stream = `BT /F1 18 Tf 72 740 Td 24 TL ${escaped.join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A multipart upload of `content` as the form's `file`. */
export function upload(content: Buffer, name = 'bill.pdf', type = 'application/pdf') {
  return multipart({ name, content, type });
}

/** POSTs a file to an invoice (`entries`) or a payment (`payments`) as the api's user. */
export function attach(
  api: Api,
  owner: 'entries' | 'payments',
  id: number,
  content: Buffer,
  name = 'bill.pdf',
  extra: Partial<InjectOptions> = {},
) {
  const body = upload(content, name);
  return api.app.inject({
    method: 'POST',
    url: `/api/v1/${owner}/${id}/attachments`,
    headers: { ...api.session.headers, ...body.headers },
    payload: body.payload,
    ...extra,
  });
}

/** Every file under a folder, recursively (the disk store's objects, or its temp folder). */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}
