import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { freePort } from './soak-nodes.js';

const CONFIG = join(resolve(import.meta.dirname, '..'), 'deploy/haproxy/haproxy.cfg');

export interface RunningProxy {
  base: string;
  stop(): Promise<void>;
}

/**
 * Debian's HAProxy with the shipped configuration (deploy/haproxy/haproxy.cfg) in front of `nodes` (one or two base
 * URLs), once it answers /healthz through a node (or, with `throughNode: false`, once it takes connections).
 */
export async function startProxy(
  nodes: string[],
  { haproxy = process.env.HAPROXY ?? '/usr/sbin/haproxy', throughNode = true } = {},
): Promise<RunningProxy> {
  if (nodes.length > 2) throw new Error('the shipped configuration names at most two nodes');
  const port = await freePort();
  const env: Record<string, string> = { ...(process.env as Record<string, string>), TEV_BIND: `127.0.0.1:${port}` };
  nodes.forEach((node, i) => {
    env[`TEV_NODE${i + 1}`] = new URL(node).host;
  });
  const child: ChildProcess = spawn(haproxy, ['-db', '-f', CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output = (output + d).slice(-10_000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-10_000)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`haproxy did not answer through a node:\n${output}`);
    const ok = await fetch(`${base}/healthz`).then(
      (res) => res.ok || !throughNode,
      () => false,
    );
    if (ok) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    base,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
