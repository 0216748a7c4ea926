import { parseArgs } from 'node:util';
import { isSourceFormat, SOURCE_FORMATS } from '../importers/formats.js';
import { sourceNameError } from '../importers/source-name.js';
import { type Country, isCountry } from '../places/countries.js';
import { printReport } from './report.js';
import { strictArgs, UsageError } from './usage.js';

export const IMPORT_USAGE = `  import <file-or-url> --format <${SOURCE_FORMATS.join('|')}> --source <name>
         [--country ch|de|at] [--cancel-missing]
                                            import events owned by a source (re-imports update)`;

interface ImportCommand {
  input: string;
  format: string;
  source: string;
  country: Country | undefined;
  cancelMissing: boolean;
}

/** Validates the arguments before anything is read or opened. */
function parseImportCommand(args: string[]): ImportCommand {
  const { values, positionals } = strictArgs(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        source: { type: 'string' },
        country: { type: 'string' },
        'cancel-missing': { type: 'boolean' },
      },
    }),
  );
  const [input, ...extra] = positionals;
  if (!input || extra.length > 0) throw new UsageError('import needs exactly one <file-or-url>');
  if (!values.format || !isSourceFormat(values.format))
    throw new UsageError(`--format must be one of ${SOURCE_FORMATS.join(', ')}`);
  if (!values.source) throw new UsageError('import needs --source <name>');
  const sourceError = sourceNameError(values.source);
  if (sourceError) throw new UsageError(`--source ${sourceError}`);
  if (values.country !== undefined && !isCountry(values.country))
    throw new UsageError('--country must be ch, de or at');
  return {
    input,
    format: values.format,
    source: values.source,
    country: values.country as Country | undefined,
    cancelMissing: values['cancel-missing'] ?? false,
  };
}

/** `tech-events import`: one file or URL into a source, as a sync would store it. */
export async function importCommand(args: string[]): Promise<void> {
  const command = parseImportCommand(args);
  const [{ importerFor, readInput }, { runImport, runCounts }, { withContext }, { progressDisplay }] =
    await Promise.all([
      import('../importers/registry.js'),
      import('../use-cases/import-records.js'),
      import('./database-or-service.js'),
      import('./progress.js'),
    ]);
  const importer = importerFor(command.format)!;
  // Read before the database is opened: unreadable input changes nothing.
  const input = await readInput(command.input);
  const progress = progressDisplay();
  const report = await withContext(async (ctx) => {
    const at = ctx.now();
    const result = await runImport(ctx, importer, input, {
      source: command.source,
      cancelMissing: command.cancelMissing,
      defaultCountry: command.country,
      inputName: command.input,
      onProgress: (p) => progress.update(command.source, { phase: 'storing', ...p }),
    });
    progress.stop();
    await ctx.sources.recordRun({
      source: command.source,
      format: command.format,
      url: command.input,
      at,
      counts: runCounts(result),
    });
    return result;
  });
  printReport(`${command.format} ${command.input} → source "${command.source}"`, report);
  // Nothing usable at all (e.g. not the format given) is a failure; an empty input is not.
  if (report.touched.length === 0 && report.skipped.length > 0) process.exitCode = 1;
}
