/**
 * A small real HTTP server on 127.0.0.1 for client tests: each test scripts its answers with a
 * handler and reads back every request as received (method, path, headers, exact body text).
 * Used where the sandbox cannot produce the case (malformed answers, challenges already expired,
 * a consumed request id re-issued, a server that never answers).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export type Script = (request: SeenRequest, index: number) => ScriptedAnswer | Promise<ScriptedAnswer>;

export interface ScriptedServer {
  url: string;
  requests: SeenRequest[];
  setScript(script: Script): void;
  close(): Promise<void>;
}

export async function startScriptedServer(initial?: Script): Promise<ScriptedServer> {
  let script: Script = initial ?? (() => ({ status: 404, body: { status: 404, code: 'NOT_FOUND', message: 'No script.' } }));
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const seen: SeenRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = requests.push(seen) - 1;
      try {
        const answer = await script(seen, index);
        if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
        if (res.destroyed) return;
        const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          ...(text && typeof answer.body !== 'string' ? { 'content-type': 'application/json' } : {}),
          ...answer.headers,
        });
        res.end(text);
      } catch (e) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 500, code: 'INTERNAL_ERROR', message: String(e) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setScript(s) {
      script = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
