// Uses the typed client against the running host and prints what it read; tsc must also find the
// type errors below (an unused @ts-expect-error fails the build).
import { list } from './client.cjs';

// The client is compiled without Node's types (a browser could run it too); the script needs these two.
declare const process: { readonly argv: readonly string[]; exit(code: number): never };

async function main(origin: string): Promise<void> {
  const articles = await list(origin, '/api/articles', {
    filter: { published: 'true' },
    sort: { rating: 'desc' },
    fields: ['title', 'rating'],
  });
  if (!Array.isArray(articles)) throw new Error('expected a bare array');
  const titles: string[] = articles.map((article) => article.title ?? '(none)');
  const page = await list(origin, '/api/authors', { expand: { articles: 'a' }, 'per-page': 2, sort: { name: 'DESC' } });
  if (Array.isArray(page) || !('total' in page)) throw new Error('expected the page envelope');
  const authors = page.data.map((author) => ({ name: author.name, articles: (author.articles ?? []).length }));
  const cursor = await list(origin, '/api/articles', { cursor: '', 'per-page': 2, fields: ['id'] });
  if (Array.isArray(cursor) || !('next_cursor' in cursor)) throw new Error('expected the cursor envelope');
  console.log(JSON.stringify({ titles, total: page.total, authors, next: typeof cursor.next_cursor }));
}

/** Never called: what the generated types must refuse. */
export function refused(origin: string): void {
  // @ts-expect-error -- password_hash is not a filterable field of authors
  void list(origin, '/api/authors', { filter: { password_hash: 'x' } });
  // @ts-expect-error -- nor beside an allowed one
  void list(origin, '/api/authors', { filter: { name: 'a', password_hash: 'x' } });
  // @ts-expect-error -- fields names projectable fields only
  void list(origin, '/api/authors', { fields: ['password_hash'] });
  // @ts-expect-error -- total is one of exact, estimated, none
  void list(origin, '/api/authors', { total: 'some' });
}

main(process.argv[2] ?? '').catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
