import { describe, expect, it } from 'vitest';
import { runModuleSource } from './helpers/process.js';

describe('the service log on standard output', () => {
  it('loses no line when the process exits in the same turn it logged them', async () => {
    const script = `
      import { createLogger } from './src/observability/logger.ts';
      const logger = createLogger('info');
      for (let i = 0; i < 5000; i++) logger.info({ i }, 'line');
      process.exit(0);
    `;
    const stdout = await runModuleSource(script);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { i: number; msg: string });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });
});
