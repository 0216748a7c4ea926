/** A request URL's path, without its query string (which may carry secrets, and never decides caching or logging). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * The operations endpoints (load balancers, orchestrators, scrapers): never rate-limited, shed or held for a turn,
 * never cached.
 */
export const OPERATIONS_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);
