/**
 * Names people really use for a city that GeoNames does not list (see data/README.md, "Local names"): the city's
 * own dialect name, as its German Wikipedia article gives it in the first line ("Zürich (schweizerdeutsch Züri)").
 * The gazetteer reads them as alternate names of the place, so every lookup (prompts, `city`, event cities) finds
 * them. Left out on purpose: names that are also common words ("Wean" for Wien is the English "wean"); names
 * GeoNames already holds ("Minga" for München, "Kölle" for Köln, "Hamborg" for Hamburg).
 */
export const LOCAL_NAMES: Readonly<Record<number, readonly string[]>> = {
  // de.wikipedia.org/wiki/Zürich: "Zürich (zürichdeutsch Züri)".
  2657896: ['Züri'],
  // de.wikipedia.org/wiki/Bern: "Bern (berndeutsch Bärn)". Folded it is also the English "barn", too rare in a
  // prompt about tech events to outweigh the city.
  2661552: ['Bärn'],
  // de.wikipedia.org/wiki/Winterthur and en.wikipedia.org/wiki/Winterthur: "usually abbreviated as Winti in the
  // local dialect and by its inhabitants".
  2657970: ['Winti'],
  // de.wikipedia.org/wiki/St._Gallen: "St. Gallen (schweizerdeutsch Sanggale)".
  2658822: ['Sanggale', 'St. Galle'],
  // de.wikipedia.org/wiki/Schaffhausen: "Schaffhausen (schweizerdeutsch Schafuuse)".
  2658761: ['Schafuuse', 'Schaffuuse'],
  // de.wikipedia.org/wiki/Luzern: "Luzern (schweizerdeutsch Lozärn)".
  2659811: ['Lozärn', 'Luzärn'],
  // de.wikipedia.org/wiki/Solothurn: "Solothurn (schweizerdeutsch Soledurn)".
  2658564: ['Soledurn'],
};
