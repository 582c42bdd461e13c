// The part of autocannon 9's programmatic API the ingest bench uses (the package ships no types).
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (req: { headers: Record<string, string>; body?: string | Buffer }, context: Record<string, unknown>) => unknown;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    setupClient?: (client: { setHeaders(headers: Record<string, string>): void }) => void;
    requests?: AutocannonRequest[];
  }
  function autocannon(opts: AutocannonOptions): Promise<unknown>;
  export default autocannon;
}
