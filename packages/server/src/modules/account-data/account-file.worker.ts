import { parentPort, workerData } from 'node:worker_threads';
import { fileMessages } from './account-file-parser.ts';

// A worker thread of `parseAccountFile`: one file, posted back in parts. It then waits (the listener keeps it
// alive) until the main thread, having read every part, ends it.
const { bytes } = workerData as { bytes: Uint8Array };
for (const message of fileMessages(bytes)) parentPort?.postMessage(message);
parentPort?.on('message', () => {});
