import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';

/** Mosquitto 2's dynamic security plugin is driven by JSON over MQTT on these topics. */
export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;

/** A command of the plugin's API, e.g. `{ command: 'disableClient', username }`. */
export type DynsecCommand = { command: string } & Record<string, unknown>;

export interface DynsecResponse {
  command: string;
  /** Set when the command failed: the plugin's own English words ("Client not found"). */
  error?: string;
  data?: unknown;
}

/** What `listClients` with `verbose: true` says of one client. */
export interface BrokerClient {
  username: string;
  clientid?: string;
  textdescription?: string;
  disabled?: boolean;
  roles?: { rolename: string }[];
}

export interface BrokerRole {
  rolename: string;
}

/** The plugin answered nothing in time (its answers are QoS 0: one may be lost). */
export class DynsecTimeout extends Error {}

/** Answers at most this many commands per message, so a large reconciliation stays well under the packet limits. */
export const MAX_COMMANDS_PER_REQUEST = 100;
const REQUEST_TIMEOUT_MS = 10_000;

interface Pending {
  expected: number;
  responses: Map<string, DynsecResponse>;
  resolve: (responses: DynsecResponse[]) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
  ids: string[];
}

/**
 * A client of the dynamic security plugin over the server's administrative MQTT connection:
 * commands are published in batches, and each answer is matched to its command by a correlation
 * id unique to this process (every administrative client of the broker sees every answer).
 */
export class DynamicSecurity {
  private readonly prefix = randomBytes(6).toString('hex');
  private next = 0;
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly client: MqttClient) {}

  /** Feeds an answer message received on the response topic. */
  onResponse(payload: Buffer): void {
    let body: { responses?: (DynsecResponse & { correlationData?: string })[] };
    try {
      body = JSON.parse(payload.toString('utf8')) as typeof body;
    } catch {
      return;
    }
    for (const response of body.responses ?? []) {
      const id = response.correlationData;
      if (!id) continue;
      const request = this.pending.get(id);
      if (!request) continue;
      request.responses.set(id, response);
      if (request.responses.size === request.expected) this.settle(request);
    }
  }

  /** Sends commands (in batches) and resolves with one answer per command, in order. */
  async run(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    const out: DynsecResponse[] = [];
    for (let i = 0; i < commands.length; i += MAX_COMMANDS_PER_REQUEST) {
      out.push(...(await this.request(commands.slice(i, i + MAX_COMMANDS_PER_REQUEST))));
    }
    return out;
  }

  /** One command; its failure (an `error` in the answer) is thrown. */
  async one(command: DynsecCommand): Promise<DynsecResponse> {
    const [response] = await this.request([command]);
    if (response!.error) throw new Error(`${command.command}: ${response!.error}`);
    return response!;
  }

  /** Every client the broker knows, with roles and the disabled flag. */
  async listClients(): Promise<BrokerClient[]> {
    const response = await this.one({ command: 'listClients', verbose: true, count: -1, offset: 0 });
    return (response.data as { clients?: BrokerClient[] } | undefined)?.clients ?? [];
  }

  async listRoles(): Promise<BrokerRole[]> {
    const response = await this.one({ command: 'listRoles', verbose: false, count: -1, offset: 0 });
    return ((response.data as { roles?: (string | BrokerRole)[] } | undefined)?.roles ?? []).map((r) => (typeof r === 'string' ? { rolename: r } : r));
  }

  /** Fails every request waiting for an answer (the connection went away). */
  failAll(reason: string): void {
    for (const request of new Set(this.pending.values())) {
      clearTimeout(request.timer);
      for (const id of request.ids) this.pending.delete(id);
      request.reject(new Error(reason));
    }
  }

  private request(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    return new Promise((resolve, reject) => {
      const ids = commands.map(() => `${this.prefix}-${++this.next}`);
      const request: Pending = {
        expected: commands.length,
        responses: new Map(),
        resolve,
        reject,
        ids,
        timer: setTimeout(() => {
          for (const id of ids) this.pending.delete(id);
          reject(new DynsecTimeout(`the dynamic security plugin did not answer ${commands[0]!.command} within ${REQUEST_TIMEOUT_MS / 1000} s`));
        }, REQUEST_TIMEOUT_MS),
      };
      request.timer.unref();
      for (const id of ids) this.pending.set(id, request);
      const payload = JSON.stringify({ commands: commands.map((c, i) => ({ ...c, correlationData: ids[i] })) });
      this.client.publish(DYNSEC_TOPIC, payload, { qos: 1 }, (err) => {
        if (!err) return;
        clearTimeout(request.timer);
        for (const id of ids) this.pending.delete(id);
        reject(err);
      });
    });
  }

  private settle(request: Pending): void {
    clearTimeout(request.timer);
    for (const id of request.ids) this.pending.delete(id);
    request.resolve(request.ids.map((id) => request.responses.get(id)!));
  }
}
