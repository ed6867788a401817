import { parentPort, workerData } from 'node:worker_threads';
import { fileMessages } from './account-file-parser.ts';

// A worker thread of `readAccountFile`: one file, parsed and checked whole, then posted back a part at a time, each
// when the main thread asks for the next, so that the main thread never holds more than a part or two of the file
// however large it is. After the last part it waits until the main thread ends it.
const { bytes } = workerData as { bytes: Uint8Array };
const parts = fileMessages(bytes);
const post = () => {
  const next = parts.next();
  if (!next.done) parentPort?.postMessage(next.value);
};
parentPort?.on('message', post);
post();
