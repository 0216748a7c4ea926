/** A request URL's path, without its query string (which may carry secrets, and never decides caching or logging). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
