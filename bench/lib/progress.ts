/**
 * A progress bar on stderr without a dependency. On a terminal it redraws one line; otherwise (CI logs,
 * pipes) it prints a line every 10 % so logs stay short.
 */
export class Progress {
  private readonly started = performance.now();
  private lastDraw = 0;
  private lastDecile = -1;
  private readonly tty = process.stderr.isTTY === true;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, detail = ''): void {
    const now = performance.now();
    const fraction = this.total === 0 ? 1 : Math.min(done / this.total, 1);
    if (this.tty) {
      if (now - this.lastDraw < 100 && fraction < 1) return;
      this.lastDraw = now;
      this.stream.write(`\r${this.line(fraction, done, detail)}\x1b[K`);
    } else {
      const decile = Math.floor(fraction * 10);
      if (decile === this.lastDecile) return;
      this.lastDecile = decile;
      this.stream.write(`${this.line(fraction, done, detail)}\n`);
    }
  }

  finish(detail = ''): void {
    this.update(this.total, detail);
    if (this.tty) this.stream.write('\n');
  }

  private line(fraction: number, done: number, detail: string): string {
    const width = 30;
    const filled = Math.round(fraction * width);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    const pct = `${Math.floor(fraction * 100)}`.padStart(3);
    const count = `${done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')}`;
    return `${this.label} [${bar}] ${pct}% ${count} ${seconds}s${detail ? ` ${detail}` : ''}`;
  }
}
