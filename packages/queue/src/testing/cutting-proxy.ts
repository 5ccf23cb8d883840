import { connect, createServer, type Socket } from 'node:net';

/** What happens to the connection that carried the marked command, once Redis has answered it. */
export type CutMode =
  /** Closed before the reply reaches the client (a Redis restart right after the command ran). */
  | { readonly kind: 'drop'; readonly replyBytes?: number }
  /** Held silent, reply kept back, until `release()` (a process stopped between two round trips). */
  | { readonly kind: 'hold' };

/**
 * A TCP proxy in front of Redis that loses one reply on demand, so tests can reproduce what a Redis
 * restart or a killed process does between a command and the next one, deterministically.
 */
export interface CuttingProxy {
  /** `redis://127.0.0.1:<proxy port>`. */
  readonly url: string;
  /**
   * Arms one cut: the next client write containing `marker` reaches Redis; Redis's answer does not
   * reach the client (`drop` forwards only the first `replyBytes` of it, default none, then closes the
   * connection; `hold` keeps it back). Resolves once Redis has answered, i.e. the command has run.
   */
  cutAfter(marker: string, mode?: CutMode): Promise<void>;
  /** Delivers held replies and resumes a held connection. */
  release(): void;
  /** Closes the proxy and every connection through it. */
  close(): Promise<void>;
}

interface Armed {
  readonly marker: Buffer;
  readonly mode: CutMode;
  readonly done: () => void;
}

/** Starts a cutting proxy on a free loopback port in front of the Redis on `redisPort`. */
export async function startCuttingProxy(redisPort: number): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  const resumes: (() => void)[] = [];
  let armed: Armed | undefined;

  const server = createServer((client) => {
    const upstream = connect(redisPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    let cut: Armed | undefined;
    // While held: what each side sent, delivered on release().
    let held: { toServer: Buffer[]; toClient: Buffer[] } | undefined;
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('close', closeBoth);
      socket.on('error', closeBoth);
    }
    client.on('data', (chunk: Buffer) => {
      if (held) return void held.toServer.push(chunk);
      if (armed && chunk.includes(armed.marker)) {
        cut = armed;
        armed = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (held) return void held.toClient.push(chunk);
      const now = cut;
      if (!now) return void client.write(chunk);
      cut = undefined;
      if (now.mode.kind === 'drop') {
        const keep = now.mode.replyBytes ?? 0;
        if (keep > 0) client.write(chunk.subarray(0, keep), closeBoth);
        else closeBoth();
      } else {
        const queued: { toServer: Buffer[]; toClient: Buffer[] } = { toServer: [], toClient: [chunk] };
        held = queued;
        resumes.push(() => {
          held = undefined;
          for (const c of queued.toClient) client.write(c);
          for (const c of queued.toServer) upstream.write(c);
        });
      }
      now.done();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    cutAfter(marker, mode = { kind: 'drop' }) {
      return new Promise<void>((done) => {
        armed = { marker: Buffer.from(marker), mode, done };
      });
    },
    release() {
      for (const resume of resumes.splice(0)) resume();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
