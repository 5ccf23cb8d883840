import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { outageLog, watchRedis } from './outage-log.js';

/** A real pino logger writing JSON lines into an array. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });

describe('outageLog', () => {
  it('logs the first error of a kind, counts repeats for a minute, then logs again with the count', () => {
    const { logger, lines } = capture();
    let now = 1_000_000;
    const log = outageLog(logger, 'Redis (queues)', () => now);
    for (let i = 0; i < 50; i++) {
      log.error(refused());
      now += 100;
    }
    log.error(new Error('READONLY You cannot write against a read only replica.'));
    expect(lines.map((l) => [l.msg, l.err, l.repeated])).toEqual([
      ['Redis (queues): error', 'connect ECONNREFUSED 127.0.0.1:6379', undefined],
      ['Redis (queues): error', 'READONLY You cannot write against a read only replica.', undefined],
    ]);
    now += 60_000;
    log.error(refused());
    expect(lines[2]).toMatchObject({ msg: 'Redis (queues): error', repeated: 49, level: 40 });
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('says once that the backend answers again, and only after errors', () => {
    const { logger, lines } = capture();
    const log = outageLog(logger, 'Redis (rate limits)');
    log.recovered();
    expect(lines).toEqual([]);
    log.error(refused());
    log.recovered();
    log.recovered();
    expect(lines.map((l) => l.msg)).toEqual(['Redis (rate limits): error', 'Redis (rate limits): answers again']);
    // A new outage is reported at once, not counted as a repeat of the last one.
    log.error(refused());
    expect(lines).toHaveLength(3);
  });

  it("watchRedis takes a client's error and ready events", () => {
    const { logger, lines } = capture();
    const client = new EventEmitter();
    watchRedis(client, outageLog(logger, 'Redis (API keys)'));
    client.emit('error', refused());
    client.emit('error', refused());
    client.emit('ready');
    expect(lines.map((l) => l.msg)).toEqual(['Redis (API keys): error', 'Redis (API keys): answers again']);
  });
});
