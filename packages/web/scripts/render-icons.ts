/**
 * Renders the PNG app icons of the web app manifest from their SVG sources in `public/icons/` with Chromium
 * (no image tool needed): `npx tsx packages/web/scripts/render-icons.ts`. Run it after changing an icon SVG and
 * commit the PNGs.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const ICONS = resolve(import.meta.dirname, '../public/icons');
const OUTPUTS = [
  { source: 'icon.svg', file: 'icon-192.png', size: 192, background: 'transparent' },
  { source: 'icon.svg', file: 'icon-512.png', size: 512, background: 'transparent' },
  { source: 'icon-maskable.svg', file: 'icon-maskable-512.png', size: 512, background: '#1b5e20' },
  { source: 'icon-maskable.svg', file: 'apple-touch-icon.png', size: 180, background: '#1b5e20' },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const { source, file, size, background } of OUTPUTS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const svg = readFileSync(join(ICONS, source), 'utf8').replace(
      /width="\d+" height="\d+"/,
      `width="${size}" height="${size}"`,
    );
    await page.setContent(`<body style="margin:0;background:${background}">${svg}</body>`);
    await page.screenshot({ path: join(ICONS, file), omitBackground: background === 'transparent' });
    await page.close();
    console.log(`${file} ${size}×${size}`);
  }
} finally {
  await browser.close();
}
