/**
 * The source formats, by the name `--format` and feeds.json use. Apart from the importers themselves (registry.ts,
 * typed by this list) so that the CLI can check a `--format` without loading every parser.
 */
export const SOURCE_FORMATS = ['bevy', 'confs-tech', 'devopsdays', 'developers-events', 'ical', 'jsonl'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

export const isSourceFormat = (format: string): format is SourceFormat =>
  (SOURCE_FORMATS as readonly string[]).includes(format);
