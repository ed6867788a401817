import { parentPort, workerData } from 'node:worker_threads';
import { fileMessages } from './account-file-parser.ts';

// A worker thread of `parseAccountFile`: one file, posted back in parts, each after the main thread has taken the
// one before (its "next"), so that the main thread reads one part per turn of its event loop instead of a queue of
// hundreds in one go. After the last part it waits until the main thread ends it.
const { bytes } = workerData as { bytes: Uint8Array };
const parts = fileMessages(bytes);
const post = () => {
  const next = parts.next();
  if (!next.done) parentPort?.postMessage(next.value);
};
parentPort?.on('message', post);
post();
