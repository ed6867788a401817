import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

// React only runs effects synchronously inside act() when told it is in a test environment.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface ReactRoot {
  /** The element the test's tree renders into, in the document. */
  readonly container: HTMLDivElement;
  readonly root: Root;
}

/**
 * A React root in a fresh container in the document for each test of the calling file or `describe` block,
 * unmounted and removed after it. Read `container` and `root` inside a test, not when the block is declared.
 */
export function reactRootPerTest(): ReactRoot {
  let container: HTMLDivElement | undefined;
  let root: Root | undefined;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    container?.remove();
  });
  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('reactRootPerTest: read inside a test');
    return value;
  };
  return {
    get container() {
      return current(container);
    },
    get root() {
      return current(root);
    },
  };
}
