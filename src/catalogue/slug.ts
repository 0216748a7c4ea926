import slugify from '@sindresorhus/slugify';

const MAX_LENGTH = 60;

/**
 * The readable part of an event id: ASCII, lower-case, hyphenated, umlauts and accents folded to their base
 * letter ("KI-Meetup Zürich" → "ki-meetup-zurich"), cut at a word boundary.
 */
export function slugBase(title: string): string {
  const slug = slugify(title, {
    decamelize: false,
    customReplacements: [
      ['ä', 'a'],
      ['ö', 'o'],
      ['ü', 'u'],
      ['Ä', 'a'],
      ['Ö', 'o'],
      ['Ü', 'u'],
      ['++', 'pp'],
    ],
  });
  if (!slug) return 'event';
  if (slug.length <= MAX_LENGTH) return slug;
  const cut = slug.slice(0, MAX_LENGTH + 1);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen > 20 ? cut.slice(0, lastHyphen) : slug.slice(0, MAX_LENGTH)).replace(/-+$/, '');
}

/** The first of base, base-2, base-3, … not in `taken`. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
