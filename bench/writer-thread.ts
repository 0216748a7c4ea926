/**
 * The bench's steady writer on a thread of its own: the load generator saturates the bench's main thread, and
 * latencies timed there would include its own queueing. Started by `startWriter` (mixed.ts): says when it has
 * started, and sends its latencies back when told to stop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runWriter, type WriterOptions } from './mixed.js';

const writer = runWriter(workerData as WriterOptions);
parentPort!.once('message', async () => {
  parentPort!.postMessage(await writer.stop());
});
parentPort!.postMessage('started');
