import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { scheduleHourly } from '../src/jobs/scheduler.ts';

describe('the hourly jobs on shutdown', () => {
  it('stop waits for the running job, and starts none after it', async () => {
    const events: string[] = [];
    let finish: () => void = () => {};
    const stop = scheduleHourly(
      [
        {
          name: 'slow',
          run: () =>
            new Promise<void>((done) => {
              events.push('slow started');
              finish = () => {
                events.push('slow finished');
                done();
              };
            }),
        },
        { name: 'next', run: async () => events.push('next ran') },
      ],
      pino({ level: 'silent' }),
    );
    await new Promise((r) => setTimeout(r, 20));
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(events).toEqual(['slow started', 'slow finished']);
  });
});
