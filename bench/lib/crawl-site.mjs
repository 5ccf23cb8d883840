// Starts the generated benchmark site (lib/site-server.mjs) in a child process.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Resolves to { origins: string[], cpuMs(), stop() }, or null when the test data is absent. `server`
 * names the site's script in this folder (the soak benchmark's larger site is another).
 */
export async function startCrawlSite(root, { hosts, pagesPerHost, server = 'site-server.mjs' }) {
  const child = spawn(process.execPath, [join(here, server), root, String(pagesPerHost), ...hosts], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /ready (.*)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`site server exited with ${code}`)));
  });
  const ports = JSON.parse(line);
  if (!ports) return null;
  return {
    origins: hosts.map((h) => `http://${h}:${ports[h]}`),
    /** The server process's CPU milliseconds so far (it shares the cores with the crawler). */
    cpuMs: () =>
      new Promise((resolve) => {
        let out = '';
        const onData = (chunk) => {
          out += chunk;
          const m = /cpu ([\d.]+)\n/.exec(out);
          if (!m) return;
          child.stdout.off('data', onData);
          resolve(Number(m[1]));
        };
        child.stdout.on('data', onData);
        child.stdin.write('cpu\n');
      }),
    stop: () => child.kill('SIGTERM'),
  };
}

/** Samples this process's RSS (threads included) until stopped; returns the peak in MiB. */
export function rssSampler(intervalMs = 100) {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(peak / 1048576);
    },
  };
}
