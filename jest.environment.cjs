'use strict';

const { TestEnvironment } = require('jest-environment-node');

/**
 * Jest's Node environment, and a prompt end for the worker process that loads it.
 *
 * When a run is over, Jest tells each worker process to end, waits 500 ms for it to exit, then
 * kills it and warns that tests leaked. Our workers held nothing open by then, yet a natural exit
 * took 600–800 ms: the embedded index's native runtime (LanceDB's Tokio threads) shutting down,
 * then a heap of several hundred MB freed. So a worker told to end kills itself at once when no
 * JavaScript handle (a server, a socket, a timer, a child process) holds it open; jest.config.js
 * keeps its heap small, since even a killed process takes its time to die near 1 GB. When
 * something does hold it, it is left to Jest, which warns as before, and this names what holds it
 * (`Timeout`, `TCPSocketWrap`...): a real leak is still reported.
 * Checked by hand with a forked child speaking jest-worker's end message: holding nothing, it was
 * gone 29–120 ms after the message was sent; holding a timer, it was still alive a second later.
 */

/** jest-worker's message to a child process that the run is over (its `CHILD_MESSAGE_END`). */
const CHILD_MESSAGE_END = 2;

function exitWhenTheRunEnds() {
  if (typeof process.send !== 'function') return;
  const onMessage = (message) => {
    if (!Array.isArray(message) || message[0] !== CHILD_MESSAGE_END) return;
    process.removeListener('message', onMessage);
    // jest-worker's own listener, called first, has stopped listening, so with ours gone the IPC
    // channel no longer counts. The standard streams are pipes to Jest, which the resources below
    // list whenever a test touched them (idle, they hold nothing; a pending write still does).
    for (const stream of [process.stdin, process.stdout, process.stderr]) stream.unref?.();
    const held = process.getActiveResourcesInfo();
    // Not process.exit, which still runs Node's teardown: over the whole suite it was too slow.
    // The results are already with Jest (sent before this message); nothing is left to flush.
    if (held.length === 0) {
      process.kill(process.pid, 'SIGKILL');
      return;
    }
    process.stderr.write(`Jest worker ${process.pid} is held open at the end of the run by: ${held.join(', ')}\n`);
  };
  process.on('message', onMessage);
}

// Once per worker process: Jest loads this module outside the tests' sandbox, and only once.
exitWhenTheRunEnds();

module.exports = TestEnvironment;
