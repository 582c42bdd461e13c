/** The line printed and the metrics recorded for each run of an HTTP or MQTT load. */
import { type Metrics, cpuText, record } from './bench-run';
import type { HttpLoadResult } from './http-load';
import type { MqttLoadResult } from './mqtt-load';
import { fmtInt, fmtMs } from './stats';

export function httpLine(label: string, i: number, r: HttpLoadResult, extra: Metrics, batch: number): string {
  const bad = r.non2xx + r.errors + r.timeouts;
  return (
    `  ${label} run ${i + 1}: ${fmtInt(r.reqPerS)} req/s` +
    (batch > 1 ? ` = ${fmtInt(r.readingsPerS)} readings/s` : '') +
    `, p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, ${cpuText(extra)}` +
    (Number.isFinite(extra.fsyncsPerS) ? `, ${fmtInt(extra.fsyncsPerS!)} fsync/s` : '') +
    (extra.diskBytesPerS! > 0 ? `, ${extra.walBytesPerS === undefined ? 'disk' : 'WAL'} ${fmtInt(extra.diskBytesPerS! / 1024)} KiB/s = ${fmtInt(extra.diskBytesPerS! / r.readingsPerS)} B/reading` : '') +
    (bad > 0 ? `, NOT 2xx: ${JSON.stringify(r.statusCodes)} errors ${r.errors} timeouts ${r.timeouts}` : '')
  );
}

export function recordHttp(key: string, r: HttpLoadResult, extra: Metrics, more: Metrics = {}): void {
  record(key, {
    reqPerS: r.reqPerS,
    readingsPerS: r.readingsPerS,
    p50: r.p50,
    p99: r.p99,
    not2xx: r.non2xx + r.errors + r.timeouts,
    duplicates: r.duplicatesSum,
    readingsPerFsync: r.readingsPerS / extra.fsyncsPerS!,
    cpuUs: (extra.serverCpu! / r.readingsPerS) * 1e6,
    diskBytes: extra.diskBytesPerS! / r.readingsPerS,
    ...extra,
    ...more,
  });
}

export function mqttLine(key: string, i: number, r: MqttLoadResult, extra: Metrics): string {
  return (
    `  ${key} run ${i + 1}: ${fmtInt(r.msgsPerS)} msg/s, PUBACK p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, ${cpuText(extra)}` +
    (Number.isFinite(extra.fsyncsPerS) ? `, ${fmtInt(extra.fsyncsPerS!)} fsync/s` : '') +
    (extra.diskBytesPerS! > 0 ? `, ${extra.walBytesPerS === undefined ? 'disk' : 'WAL'} ${fmtInt(extra.diskBytesPerS! / 1024)} KiB/s = ${fmtInt(extra.diskBytesPerS! / r.msgsPerS)} B/reading` : '') +
    (r.refusals + r.publishErrors > 0 ? `, REFUSED ${r.refusals}, publish errors ${r.publishErrors}` : '')
  );
}

export function recordMqtt(key: string, r: MqttLoadResult, extra: Metrics, more: Metrics = {}): void {
  record(key, {
    msgsPerS: r.msgsPerS,
    p50: r.p50,
    p99: r.p99,
    refused: r.refusals + r.publishErrors,
    readingsPerFsync: r.msgsPerS / extra.fsyncsPerS!,
    cpuUs: (extra.serverCpu! / r.msgsPerS) * 1e6,
    diskBytes: extra.diskBytesPerS! / r.msgsPerS,
    ...extra,
    ...more,
  });
}
