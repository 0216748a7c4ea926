/** Small helpers over fetch for tests: JSON in, status + headers + parsed body out; a raw request over a socket. */
import { connect } from 'node:net';

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function request<T = any>(
  url: string,
  init: { method?: string; key?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<Response<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if (/json/.test(res.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Every event of a paginated `GET /api/events` from `url` on, following `next` until it is absent. */
export async function allEvents<E = any>(url: string, init: { key?: string } = {}): Promise<E[]> {
  const events: E[] = [];
  let next: string | undefined = url;
  while (next) {
    const res: Response<{ events: E[]; next?: string }> = await request(next, init);
    if (res.status !== 200) throw new Error(`GET ${next} answered ${res.status}: ${res.text}`);
    events.push(...res.body.events);
    next = res.body.next;
  }
  return events;
}

/**
 * POST /api/admin/sync and the run's outcome: the 202 that starts it (or the problem that refuses it), then its
 * GET /api/admin/sync/<id> until it has ended.
 */
export async function adminSync<T = any>(
  base: string,
  token: string,
): Promise<{ started: Response; run: Response<T> }> {
  const started = await request(`${base}/api/admin/sync`, { method: 'POST', key: token });
  if (started.status !== 202) return { started, run: started };
  const until = Date.now() + 120_000;
  for (;;) {
    const run = await request(`${base}/api/admin/sync/${started.body.id}`, { key: token });
    if (run.status !== 200 || run.body.state !== 'running' || Date.now() > until) return { started, run };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One raw request over its own socket; what came back, whole, once the server closed or `ms` passed. */
export function raw(port: number, head: string, body?: Buffer, ms = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer));
    setTimeout(() => socket.destroy(), ms).unref();
    socket.write(head);
    if (body) socket.write(body);
  });
}
