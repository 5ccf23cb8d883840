'use strict';

const { TestEnvironment } = require('jest-environment-node');

/**
 * Jest's Node environment, and a prompt exit for the worker process that loads it.
 *
 * When a run is over, Jest tells each worker process to end, waits 500 ms for it to exit and then
 * kills it, warning that tests leaked. Our workers hold nothing open by then, but a natural exit
 * tears down the embedded index's native runtime (LanceDB's Tokio threads) and frees a heap of a
 * few hundred MB, which took 600–800 ms: every full run ended with that warning about no leak.
 * So a worker told to end ends at once (killed by itself) when no JavaScript handle (a server, a socket, a timer, a
 * child process) still holds it open. When one does, it is left to Jest, which warns as before:
 * a real leak is still reported, and this names what holds the worker (`Timeout`, `TCPSocketWrap`…).
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
    // Not process.exit: it still stops the thread pools that earlier tests' code left parked
    // (each tears down its own heap) and the native runtime's threads, which took longer than Jest
    // waits in the whole suite. The results are already with Jest, and nothing is left to flush.
    if (held.length === 0) process.kill(process.pid, 'SIGKILL');
    process.stderr.write(`Jest worker ${process.pid} is held open at the end of the run by: ${held.join(', ')}\n`);
  };
  process.on('message', onMessage);
}

// Once per worker process: Jest loads this module outside the tests' sandbox, and only once.
exitWhenTheRunEnds();

module.exports = TestEnvironment;
