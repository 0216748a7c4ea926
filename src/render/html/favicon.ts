/**
 * The site's icon, a calendar leaf on the accent colour: as SVG for browsers that take one, and as a 32 × 32 ICO at
 * /favicon.ico, which browsers and feed readers ask for without being told. The ICO is drawn here from the same
 * shapes (a BMP inside an ICO container is a header and raw pixels), so no binary file or image library is needed.
 */

const SIZE = 32;
const ACCENT = [0x0b, 0x57, 0xd0] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

/** What colour a pixel is (or transparent), from the icon's three shapes. */
function pixel(x: number, y: number): readonly [number, number, number] | undefined {
  const corner = 5;
  const cx = Math.min(x, SIZE - 1 - x);
  const cy = Math.min(y, SIZE - 1 - y);
  if (cx < corner && cy < corner && (corner - cx) ** 2 + (corner - cy) ** 2 > corner ** 2) return undefined;
  const inLeaf = x >= 7 && x <= 24 && y >= 8 && y <= 25;
  const inHeader = inLeaf && y <= 12;
  const inDay = x >= 13 && x <= 18 && y >= 16 && y <= 21;
  return inLeaf && !inHeader && !inDay ? WHITE : ACCENT;
}

function drawIco(): Buffer {
  const pixels = SIZE * SIZE * 4;
  const maskRow = Math.ceil(SIZE / 32) * 4;
  const image = 40 + pixels + maskRow * SIZE;
  const out = Buffer.alloc(6 + 16 + image);
  // ICONDIR and its one ICONDIRENTRY.
  out.writeUInt16LE(0, 0);
  out.writeUInt16LE(1, 2);
  out.writeUInt16LE(1, 4);
  out.writeUInt8(SIZE, 6);
  out.writeUInt8(SIZE, 7);
  out.writeUInt16LE(1, 10);
  out.writeUInt16LE(32, 12);
  out.writeUInt32LE(image, 14);
  out.writeUInt32LE(22, 18);
  // BITMAPINFOHEADER: the height counts the colour rows and the mask rows.
  const header = 22;
  out.writeUInt32LE(40, header);
  out.writeInt32LE(SIZE, header + 4);
  out.writeInt32LE(SIZE * 2, header + 8);
  out.writeUInt16LE(1, header + 12);
  out.writeUInt16LE(32, header + 14);
  out.writeUInt32LE(pixels + maskRow * SIZE, header + 20);
  // Pixels bottom-up, as BGRA; the AND mask stays zero (the alpha channel decides).
  let at = header + 40;
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) {
      const colour = pixel(x, y);
      if (colour) {
        out[at] = colour[2];
        out[at + 1] = colour[1];
        out[at + 2] = colour[0];
        out[at + 3] = 0xff;
      }
      at += 4;
    }
  }
  return out;
}

export const FAVICON_ICO: Buffer = drawIco();

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="5" fill="#0b57d0"/>
<rect x="7" y="8" width="18" height="18" fill="#fff"/>
<rect x="7" y="8" width="18" height="5" fill="#0b57d0"/>
<rect x="13" y="16" width="6" height="6" fill="#0b57d0"/>
</svg>
`;
