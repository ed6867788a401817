/** Text made safe inside HTML elements and double-quoted attributes (the mails' HTML parts). */
export const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
