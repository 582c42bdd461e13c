import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Transport = 'http' | 'mqtt';

/** What the device gateway reports of each telemetry message. */
export interface IngestMetrics {
  ingested(transport: Transport, accepted: number, duplicates: number): void;
  refused(transport: Transport, code: string): void;
}

/** A figure read when Prometheus scrapes: one value per label set. */
export type Sample = [labels: Record<string, string>, value: number];

/**
 * The server's figures in Prometheus' text format (docs/operations.md "Operations"), every one labelled with
 * this instance's name. Counters are counted where things happen; levels (sockets, sessions, open
 * alarms, the outbox) are read at scrape time from their owners.
 */
export class Metrics implements IngestMetrics {
  readonly registry = new Registry();
  private readonly readings: Counter<'transport' | 'result'>;
  private readonly refusals: Counter<'transport' | 'code'>;
  private readonly commitSize: Histogram;
  private readonly commitSeconds: Histogram;

  constructor(instanceId: string) {
    // `instance` is the scraper's own label (the target's address); ours is the server's name.
    this.registry.setDefaultLabels({ instance_id: instanceId });
    // Process and Node figures (CPU, memory, descriptors, GC, the event loop's delay) under their
    // standard names, process_* and nodejs_*, which stock Node.js dashboards and alerts query; our
    // own figures carry the agua_ prefix.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    this.readings = new Counter({
      name: 'agua_readings_total',
      help: 'Telemetry readings received, by transport and result (accepted, duplicate)',
      labelNames: ['transport', 'result'],
      registers: [this.registry],
    });
    this.refusals = new Counter({
      name: 'agua_telemetry_refused_total',
      help: 'Telemetry messages refused whole, by transport and error code',
      labelNames: ['transport', 'code'],
      registers: [this.registry],
    });
    this.commitSize = new Histogram({
      name: 'agua_group_commit_readings',
      help: 'Readings stored per group commit',
      buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000],
      registers: [this.registry],
    });
    this.commitSeconds = new Histogram({
      name: 'agua_group_commit_seconds',
      help: 'Time from handing a group to the writer thread to its commit',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
  }

  ingested(transport: Transport, accepted: number, duplicates: number): void {
    if (accepted > 0) this.readings.inc({ transport, result: 'accepted' }, accepted);
    if (duplicates > 0) this.readings.inc({ transport, result: 'duplicate' }, duplicates);
  }

  refused(transport: Transport, code: string): void {
    this.refusals.inc({ transport, code });
  }

  committed(readings: number, seconds: number): void {
    this.commitSize.observe(readings);
    this.commitSeconds.observe(seconds);
  }

  /** A level read at scrape time (a failing reader leaves the figure out rather than failing the scrape). */
  level(name: string, help: string, labelNames: string[], read: () => Sample[] | Promise<Sample[]>): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [labels, value] of await read()) this.set(labels, value);
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
