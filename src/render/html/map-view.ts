import { MAP_SIZE } from './map-base.js';

/** A point of the base map (its own units, 0…640 × 0…600) with what is drawn there. */
export interface MapPoint {
  name: string;
  x: number;
  y: number;
  count: number;
}

export interface ViewBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a place's name goes: beside, above or below its marker; none when every spot collides. */
export interface PlacedLabel {
  x: number;
  y: number;
  anchor: 'start' | 'end' | 'middle';
}

/** The map's box is wider than tall, so that above the list on a phone it leaves room for the first results. */
export const MAP_ASPECT = 16 / 10;
/** The width the map is drawn at on a phone and beside the list (CSS px): marks keep this size whatever the zoom. */
const DRAWN_WIDTH = 370;
/** One place alone is shown with its surroundings, not as a dot filling the box. */
const MIN_WIDTH = 110;
const FONT_PX = 12;

/** Map units per CSS pixel once the view is drawn: marks and text are sized in pixels through it. */
export function unitsPerPixel(view: ViewBox): number {
  return view.width / DRAWN_WIDTH;
}

export function markerRadius(count: number, k: number): number {
  return Math.min(14, 7 + 2.5 * Math.log2(count)) * k;
}

export function fontSize(k: number): number {
  return FONT_PX * k;
}

/** A name's width in map units, from the average advance of a sans-serif letter (no layout engine here). */
function textWidth(name: string, k: number): number {
  return name.length * 0.6 * fontSize(k);
}

/**
 * The part of the base map the listed places need: their extent with room for their names, at least MIN_WIDTH
 * across, widened to the box's aspect, and kept on the base map where it fits there.
 */
export function fitView(points: readonly MapPoint[]): ViewBox {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const longest = Math.max(...points.map((p) => p.name.length));
  let width = Math.max(MIN_WIDTH, maxX - minX);
  let [padX, padY] = [0, 0];
  // Twice: the room the names need depends on the zoom, which depends on that room.
  for (let i = 0; i < 2; i++) {
    const k = width / DRAWN_WIDTH;
    padX = markerRadius(8, k) + textWidth('x'.repeat(longest), k) + 6 * k;
    padY = markerRadius(8, k) + fontSize(k) + 6 * k;
    width = Math.max(MIN_WIDTH, maxX - minX + 2 * padX, (maxY - minY + 2 * padY) * MAP_ASPECT);
  }
  const height = width / MAP_ASPECT;
  const x = place((minX + maxX) / 2 - width / 2, [maxX + padX - width, minX - padX], [0, MAP_SIZE.width - width]);
  const y = place((minY + maxY) / 2 - height / 2, [maxY + padY - height, minY - padY], [0, MAP_SIZE.height - height]);
  return { x, y, width, height };
}

/**
 * Where a view's edge goes: within `keeps` (the places and their names stay in view), and within `base` too (no
 * blank beyond the base map) where both can hold.
 */
function place(centred: number, keeps: [number, number], base: [number, number]): number {
  const low = Math.max(keeps[0], base[0]);
  const high = Math.min(keeps[1], base[1]);
  return low <= high ? clamp(centred, low, high) : clamp(centred, keeps[0], keeps[1]);
}

/** Within [low, high] when that range exists; centred on the base map when the view is larger than it. */
function clamp(value: number, low: number, high: number): number {
  if (high < low) return (low + high) / 2;
  return Math.min(high, Math.max(low, value));
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Each place's name next to its marker, the busiest places first: to the right, left, above or below, the first spot
 * that covers no other marker or name and stays in view. A name with no free spot is left out (the caption has it).
 */
export function placeLabels(points: readonly MapPoint[], view: ViewBox): (PlacedLabel | undefined)[] {
  const k = unitsPerPixel(view);
  const font = fontSize(k);
  const gap = 3 * k;
  const taken: Box[] = points.map((p) => {
    const r = markerRadius(p.count, k);
    return { left: p.x - r, right: p.x + r, top: p.y - r, bottom: p.y + r };
  });
  const inView = (b: Box) =>
    b.left >= view.x && b.right <= view.x + view.width && b.top >= view.y && b.bottom <= view.y + view.height;
  const order = points.map((_, i) => i).sort((a, b) => points[b]!.count - points[a]!.count);
  const labels: (PlacedLabel | undefined)[] = points.map(() => undefined);
  for (const i of order) {
    const p = points[i]!;
    const r = markerRadius(p.count, k);
    const w = textWidth(p.name, k);
    const baseline = p.y + font * 0.35;
    const spots: [PlacedLabel, Box][] = [
      [{ x: p.x + r + gap, y: baseline, anchor: 'start' }, box(p.x + r + gap, p.x + r + gap + w, p.y, font)],
      [{ x: p.x - r - gap, y: baseline, anchor: 'end' }, box(p.x - r - gap - w, p.x - r - gap, p.y, font)],
      [{ x: p.x, y: p.y - r - gap, anchor: 'middle' }, box(p.x - w / 2, p.x + w / 2, p.y - r - gap - font * 0.4, font)],
      [
        { x: p.x, y: p.y + r + gap + font * 0.8, anchor: 'middle' },
        box(p.x - w / 2, p.x + w / 2, p.y + r + gap + font * 0.4, font),
      ],
    ];
    const free = spots.find(([, b]) => inView(b) && taken.every((t, j) => j === i || !overlaps(b, t)));
    if (!free) continue;
    labels[i] = free[0];
    taken.push(free[1]);
  }
  return labels;
}

/** A line of text of the given height centred on `middle`. */
function box(left: number, right: number, middle: number, font: number): Box {
  return { left, right, top: middle - font * 0.6, bottom: middle + font * 0.6 };
}
