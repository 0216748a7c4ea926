import { parseArgs } from 'node:util';
import { strictArgs } from './usage.js';

export const SERVE_USAGE = `  serve [--port N] [--host H] [--no-seed]   run the HTTP service`;

/** `tech-events serve`: the service, until SIGINT or SIGTERM. */
export async function serveCommand(args: string[]): Promise<void> {
  const { values } = strictArgs(() =>
    parseArgs({
      args,
      options: { port: { type: 'string' }, host: { type: 'string' }, 'no-seed': { type: 'boolean' } },
    }),
  );
  const env = { ...process.env };
  if (values.port !== undefined) env.PORT = values.port;
  if (values.host !== undefined) env.HOST = values.host;
  if (values['no-seed']) env.SEED = '0';
  const [{ loadConfig }, { createLogger, flushLogs }, { warmUpDateParsing }, { startService }] = await Promise.all([
    import('../config.js'),
    import('../observability/logger.js'),
    import('../query/read-index.js'),
    import('../service.js'),
  ]);
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  // The first prompts with a date-like word would otherwise wait for chrono's patterns to compile.
  warmUpDateParsing();
  const service = await startService(config, logger);
  logger.info(
    { engine: service.ctx.storage.engine, baseUrl: config.baseUrl },
    `tech-events listening at ${service.address}`,
  );
  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await service.close();
    await flushLogs(logger);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
