/**
 * The part's `filename`: as it is (a browser sends UTF-8 there), or as `filename*` in UTF-8 (RFC 5987) when it holds
 * what a quoted header value cannot (control characters, a quote, a backslash).
 */
function fileNameParameter(name: string): string {
  if (!/[\x00-\x1f\x7f"\\]/.test(name)) return `filename="${name}"`;
  return `filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A multipart/form-data body for `app.inject`: text fields, then one file. */
export function multipart(
  file: { name: string; content: string | Buffer; type?: string },
  fields: Record<string, unknown> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----billfold${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${JSON.stringify(value)}\r\n`,
      ),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${fileNameParameter(file.name)}\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n`,
    ),
    Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
