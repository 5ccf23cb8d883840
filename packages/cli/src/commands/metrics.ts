import { type MetricsSources, QuarryMetrics, startMetricsServer } from '@quarry/api';
import type { QuarryConfig } from '@quarry/core';
import type { Queues } from '@quarry/queue';

/** A process's metrics, with the separate listener of QUARRY_METRICS_PORT when configured. */
export interface OpenMetrics {
  readonly metrics: QuarryMetrics;
  /** `host:port` the unauthenticated listener is bound to; undefined without QUARRY_METRICS_PORT. */
  readonly listening: string | undefined;
  close(): Promise<void>;
}

/** Creates the metrics of this process, reading queue depths (and documents) at scrape time. */
export async function openMetrics(
  config: QuarryConfig,
  queues: Queues | undefined,
  index: MetricsSources['index'] | undefined,
): Promise<OpenMetrics> {
  const metrics = new QuarryMetrics({
    ...(queues ? { crawlStats: () => queues.crawl.stats(), indexStats: () => queues.index.stats() } : {}),
    ...(index ? { index } : {}),
  });
  const server =
    config.metricsPort === undefined
      ? null
      : await startMetricsServer(metrics, { port: config.metricsPort, host: config.host });
  return {
    metrics,
    listening: server?.address,
    close: async () => {
      await server?.close();
    },
  };
}
