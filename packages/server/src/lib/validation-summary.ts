/** The 400's message for a body, query or URL that fails its schema (plugins/errors.ts; the account file's parser). */

export interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** Where a field was sent, as a user would name it: `Services`, `Query parameter pageNum`, `The id in the URL`. */
function fieldLabel(context: string | undefined, path: string): string {
  if (context === 'params') return path ? `The ${path} in the URL` : 'The URL';
  if (context === 'querystring') return path ? `Query parameter ${path}` : 'The query';
  if (context === 'headers') return path ? `Header ${path}` : 'The headers';
  return path ? path.charAt(0).toUpperCase() + path.slice(1) : 'The request body';
}

/**
 * One sentence per field that is wrong (its first problem only), at most five: `Query parameter pageNum must be
 * a whole number from 0 to 10000000.` A message that is a sentence of its own (docs/product.md, Messages) stands alone.
 */
export function summarize(context: string | undefined, issues: ValidationIssue[]): string {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    if (!byField.has(path)) byField.set(path, issue.message || 'is not valid');
  }
  return [...byField]
    .slice(0, 5)
    .map(([path, message]) => {
      const sentence = /^[A-Z]/.test(message) ? message : `${fieldLabel(context, path)} ${message}`;
      return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
    })
    .join(' ');
}
