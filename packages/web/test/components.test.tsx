import { act, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../src/components/ConfirmDialog.tsx';
import { NoticeProvider, useNotice } from '../src/components/notices.tsx';
import { reactRootPerTest } from './react-root.ts';

// Registered first, so it runs after the tree is unmounted (after-hooks run last-registered first).
afterEach(() => {
  vi.useRealTimers();
});
const dom = reactRootPerTest();

const button = (name: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent === name) as HTMLButtonElement;
const alerts = () => [...document.querySelectorAll('[role="alert"]')].map((a) => a.textContent);

function Raise({ message, duration }: { message: string; duration: number }) {
  const notify = useNotice();
  return (
    <button type="button" onClick={() => notify(message, { severity: 'success', duration })}>
      raise
    </button>
  );
}

describe('notices', () => {
  it('shows a notice and closes it after its duration', () => {
    vi.useFakeTimers();
    act(() =>
      dom.root.render(
        <NoticeProvider>
          <Raise message="Email updated." duration={3000} />
        </NoticeProvider>,
      ),
    );
    act(() => button('raise').click());
    expect(alerts()).toEqual(['Email updated.']);
    act(() => vi.advanceTimersByTime(2900));
    expect(alerts()).toEqual(['Email updated.']);
    act(() => vi.advanceTimersByTime(200)); // closes at 3000 ms…
    act(() => vi.advanceTimersByTime(1000)); // …then plays its exit transition
    expect(alerts()).toEqual([]);
  });

  it('refuses to be used outside its provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => act(() => dom.root.render(<Raise message="x" duration={1} />))).toThrow(/NoticeProvider/);
  });
});

function ConfirmHarness({ onConfirm }: { onConfirm: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <ConfirmDialog
      open={open}
      title="Archive entity?"
      confirmLabel="Archive"
      destructive
      onConfirm={onConfirm}
      onCancel={() => setOpen(false)}
    >
      Its invoices become read only.
    </ConfirmDialog>
  );
}

describe('ConfirmDialog', () => {
  it('asks, and calls onConfirm only when confirmed', () => {
    const onConfirm = vi.fn();
    act(() => dom.root.render(<ConfirmHarness onConfirm={onConfirm} />));
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain('Its invoices become read only.');
    act(() => button('Archive').click());
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('calls onCancel from Cancel', () => {
    const onConfirm = vi.fn();
    act(() => dom.root.render(<ConfirmHarness onConfirm={onConfirm} />));
    act(() => button('Cancel').click());
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
