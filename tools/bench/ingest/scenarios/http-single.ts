/** [http1], [http1-limited] Single readings over HTTP against an empty Fastify route (target ≥ 0.6×). */
import { fastifyCeiling } from '../ceilings';
import { ADMIN, registerDevices, signIn } from '../devices';
import { httpFigure } from '../http-figure';
import { CONNECTIONS, LIMITED_DEVICES, GEOMETRY } from '../options';
import { profDirFor, say, servers, startServer, stopAndCheck } from '../bench-run';
import { disposeServer } from '../server-process';


export async function http1(limited: boolean): Promise<void> {
  const scenario = limited ? 'http1-limited' : 'http1';
  const nDevices = limited ? LIMITED_DEVICES : CONNECTIONS;
  say(
    limited
      ? `\n[${scenario}] HTTP single readings, ${CONNECTIONS} connections, DEVICE_RATE_LIMIT=50 (default), ${nDevices} devices round robin`
      : `\n[${scenario}] HTTP single readings, ${CONNECTIONS} connections, one device each, DEVICE_RATE_LIMIT=0`,
  );
  const srv = await startServer({ cpuProfDir: profDirFor(scenario), env: limited ? { DEVICE_RATE_LIMIT: '50' } : {} });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_http', nDevices, GEOMETRY);
    const { acknowledged, invocations } = await httpFigure(srv, scenario, scenario, devices, 1, {
      rotateDevices: limited,
      ceilings: [fastifyCeiling(servers.ceiling!, 1)],
    });
    await stopAndCheck(srv, scenario, 'bench_http', acknowledged, invocations * CONNECTIONS);
  } finally {
    await disposeServer(srv);
  }
}
