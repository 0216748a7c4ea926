import { LRUCache } from 'lru-cache';

/**
 * A bounded LRU of rendered read responses. The catalogue is read far more than written (calendar clients poll
 * the same feed URLs, crawlers re-fetch pages, assistants repeat searches), and every read is a pure function of
 * (URL, read index version, "now" to the minute) — so a body rendered once serves every identical request until
 * the index changes or the minute turns. Nothing personal is cached (requests with a key are not).
 */
export interface CachedResponse {
  body: string | Buffer;
  headers: Record<string, string>;
}

export function createResponseCache(maxEntries = 2000, maxBytes = 64 * 1024 * 1024): LRUCache<string, CachedResponse> {
  return new LRUCache<string, CachedResponse>({
    max: maxEntries,
    maxSize: maxBytes,
    // One huge body must not flush everything else.
    maxEntrySize: maxBytes / 16,
    sizeCalculation: (value) => Math.max(1, Buffer.byteLength(value.body)),
  });
}
