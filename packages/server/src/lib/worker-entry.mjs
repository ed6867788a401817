// The entry of every worker thread: TypeScript is loaded through tsx (as `npm start` runs the server), then the
// worker's own module, `workerData.entry` (e.g. modules/account-data/account-file.worker.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
