import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type PostgresMod = Parameters<NodeFS['init']>[1];

/** The parts of Emscripten's Node filesystem (NODEFS) this module reaches into. */
interface NodeFsModule {
  NODEFS: { stream_ops: { fsync?: (stream: { nfd?: number }) => number } };
}

/**
 * PGlite's Node filesystem answers fsync() without doing it (Emscripten's NODEFS has no `fsync`, and `fdatasync` is a
 * no-op in its C library), so PostgreSQL's `fsync = on` would flush nothing. This one hands every fsync of a file or
 * directory to the host's fsync, so a commit PostgreSQL acknowledges is on disk; `wal_sync_method` must be `fsync`.
 */
export class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Partial<PostgresMod>) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const preRun = [emscriptenOpts.preRun ?? []].flat();
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [
          ...preRun,
          (mod: unknown) => {
            (mod as NodeFsModule).NODEFS.stream_ops.fsync = (stream) => {
              if (stream.nfd !== undefined) fs.fsyncSync(stream.nfd);
              return 0;
            };
          },
        ],
      },
    };
  }
}

/**
 * PostgreSQL's start-up options for the embedded engine: PGlite's own, whose `-F` turns fsync off, with fsync on unless
 * the operator traded it off, and PostgreSQL's defaults for what an OS crash needs (full pages, synchronous commits).
 */
export function pgliteDurability(fsync: boolean, defaults: readonly string[]): string[] {
  const params = defaults.filter((param) => param !== '-F');
  return [
    ...params,
    ...['-c', `fsync=${fsync ? 'on' : 'off'}`],
    ...['-c', 'wal_sync_method=fsync'],
    ...['-c', 'synchronous_commit=on'],
    ...['-c', 'full_page_writes=on'],
  ];
}
