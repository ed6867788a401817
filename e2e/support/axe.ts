import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Impacts that fail a page: a serious or critical barrier for people using assistive technology. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * Rules axe-core ships as experimental (off by default) that the app is held to as well: a control's accessible
 * name contains its visible text (WCAG 2.5.3 Label in Name), so speech users can say what they see.
 */
const EXTRA_RULES = { 'label-content-name-mismatch': { enabled: true } };

export interface AxeSummary {
  /** Rules that passed and rules with any violation, of every impact. */
  passes: number;
  violations: { id: string; impact: string; targets: string[] }[];
}

/**
 * Stops every transition and animation at its end while axe reads the page: a notice still fading in or out has
 * colours between its own and the page's, which axe would read as too little contrast.
 */
const STILL =
  '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; animation-delay: 0s !important; }';

/**
 * Runs every axe-core rule (WCAG 2.x A and AA, best practices, and `EXTRA_RULES`) on the page as it is now, dialogs and menus
 * included, with every transition at its end, and throws with a readable list when a serious or critical violation is found.
 */
export async function expectAccessible(page: Page, where: string): Promise<AxeSummary> {
  const still = await page.addStyleTag({ content: STILL });
  const result = await (async () => {
    try {
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      return await new AxeBuilder({ page }).options({ rules: EXTRA_RULES }).analyze();
    } finally {
      await still.evaluate((element) => element.parentNode?.removeChild(element)).catch(() => undefined);
    }
  })();
  const violations = result.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.map((node) => `${node.target.join(' ')} — ${node.failureSummary ?? ''}`),
  }));
  const blocking = violations.filter((violation) => BLOCKING.has(violation.impact));
  if (blocking.length > 0) {
    const lines = blocking.map(
      (v) => `- ${v.id} (${v.impact}): ${v.help}\n    ${v.targets.slice(0, 5).join('\n    ')}`,
    );
    throw new Error(`axe found ${blocking.length} serious or critical violation(s) on ${where}:\n${lines.join('\n')}`);
  }
  return { passes: result.passes.length, violations };
}
