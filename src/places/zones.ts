import { DateTime, IANAZone, type Zone } from 'luxon';
import { COUNTRIES, COUNTRY_INFO } from './countries.js';

/**
 * A country's time zone that remembers its offsets by the hour. Luxon works out an IANA zone's offset for each
 * instant it reads or writes, through Intl's `formatToParts`: the costliest step of a prompt's dates, labels and
 * near misses' "in March, not next week", and of an event's VEVENT and "when" line. In ch, de and at the offset
 * changes only on a whole hour (UTC), so one per hour is exact there.
 */
class HourlyZone extends IANAZone {
  private readonly offsets = new Map<number, number>();

  override offset(ts: number): number {
    const hour = Math.floor(ts / 3_600_000);
    let offset = this.offsets.get(hour);
    if (offset === undefined) {
      offset = super.offset(ts);
      if (this.offsets.size >= 100_000) this.offsets.clear();
      this.offsets.set(hour, offset);
    }
    return offset;
  }
}

/** The countries' zones, made when the module loads: each remembers its own offsets. */
const ZONES: ReadonlyMap<string, Zone> = new Map(
  COUNTRIES.map((c) => COUNTRY_INFO[c].timeZone).map((name) => [name, new HourlyZone(name)]),
);

/** The zone of this IANA name (one of the countries'; another is made each time), for Luxon's `zone` option. */
export function zoneNamed(name: string): Zone {
  return ZONES.get(name) ?? new HourlyZone(name);
}

/** An instant as a DateTime in the zone of this IANA name (one of the countries'). */
export function localTime(date: Date, zone: string): DateTime {
  return DateTime.fromJSDate(date, { zone: zoneNamed(zone) });
}
