// The requests prism.test.ts sends through the validating proxy: every modifier in its usual forms
// (and the forms a client builds: logical prefixes, repeated keys, alias modifiers, comma lists),
// expansions, cursors and totals, the service routes, and requests the demo server refuses.

import supertest from 'supertest';

const valid: readonly string[] = [
  '/api/users',
  '/api/users?fields=id,name',
  '/api/users?fields!=email,created_at',
  '/api/users?sort[name]=desc',
  '/api/users?sort[name]=DESC&sort[id]',
  '/api/users?sort[created_at]=Ascending&limit=5',
  '/api/users?filter[id]=>=5&filter[status]=active',
  '/api/users?filter[status]=<>banned&filter[or role]=admin',
  '/api/users?filter[email_verified_at]=null',
  '/api/users?filter[name]="Kate Price"',
  '/api/users?filter[and! status]=banned&filter[OR! role]=guest',
  '/api/users?filter[or status]=active&filter[or status]=pending',
  '/api/users?in[role]=admin,editor',
  '/api/users?in[id]=1,2,3&in[or status]=banned',
  '/api/users?between[created_at]=2024-01-01,2025-12-31',
  '/api/users?between[id]=1,10&between[and! id]=3,4',
  '/api/users?search[name]=an',
  '/api/users?search[name]=Ka*&search[email]=*example.com',
  '/api/users?search[name,email]=mail',
  '/api/users?expand[posts]',
  '/api/users?expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc&p_filter[status]=published&p_limit=2',
  '/api/users?expand[posts]=p&p_expand[comments]=c&c_fields=id,body&c_limit=1&per-page=3',
  '/api/users?expand[phone]&expand[roles]=r&r_fields=id,name',
  '/api/users?filter[posts.status]=published&sort[phone.number]=desc&limit=5',
  '/api/users?search[posts.title]=a&limit=5',
  '/api/users?has[posts]=h&h_filter[status]=published',
  '/api/users?has![posts]',
  '/api/users?count[posts]=c&c_filter[status]=published&sort[posts_count]=desc&filter[posts_count]=>=1',
  '/api/users?count[posts]&in[posts_count]=0,1,2&between[or posts_count]=5,9',
  '/api/posts?expand[author]=a&a_fields=id,name&sort[views]=desc&limit=5',
  '/api/posts?expand[comments]=c&c_expand[author]&per-page=2',
  '/api/phones?per-page=2',
  '/api/roles',
  '/api/users?page=2&per-page=5',
  '/api/users?page=3&page-size=4&total=exact',
  '/api/users?per-page=5&total=estimated',
  '/api/users?per-page=5&total=none',
  '/api/users?page=999',
  '/api/users?limit=3&offset=2',
  '/api/users?per-page=5&cursor=',
  '/api/users?per-page=5&cursor=&sort[created_at]=desc',
  '/api/openapi.json',
  '/api/_meta',
  '/api/_meta/users',
  '/api/_meta/posts',
  '/api/_explain/users?filter[id]=>=5',
  '/api/_explain/users?expand[posts]=p&per-page=2&explain=plan',
];

/** The valid corpus, with cursor pages that follow the first ones (their cursors are read from the server). */
export async function validRequests(origin: string): Promise<string[]> {
  const follow: string[] = [];
  for (const first of ['/api/users?per-page=5&cursor=', '/api/users?per-page=5&cursor=&sort[created_at]=desc']) {
    const body = (await supertest(origin).get(first)).body as { next_cursor?: string | null };
    if (typeof body.next_cursor !== 'string') throw new Error(`${first} has no next_cursor`);
    const next = first.replace('cursor=', `cursor=${body.next_cursor}`);
    follow.push(next);
    const second = (await supertest(origin).get(next)).body as { prev_cursor?: string | null };
    if (typeof second.prev_cursor === 'string') follow.push(first.replace('cursor=', `cursor=${second.prev_cursor}`));
  }
  return [...valid, ...follow];
}

/** Requests the demo server refuses with a 4xx problem: malformed values, unknown names, conflicts, caps. */
export const invalidRequests: readonly string[] = [
  '/api/users?per-page=abc',
  '/api/users?per-page=1000',
  '/api/users?page=0',
  '/api/users?limit=-1',
  '/api/users?total=bogus&per-page=2',
  '/api/users?fields=nope',
  '/api/users?sort[name]=sideways',
  '/api/users?sort[nope]',
  '/api/users?filter[id]=abc',
  '/api/users?filter[nope]=1',
  '/api/users?filter[xor status]=active',
  '/api/users?in[id]=1,,2',
  '/api/users?between[id]=1',
  '/api/users?search[name]=**',
  '/api/users?expand[nope]',
  '/api/users?expand[posts]=9bad',
  '/api/users?expand[posts]=p&p_fields=nope',
  '/api/users?has[nope]',
  '/api/users?count[phone]',
  '/api/users?sort[posts_count]',
  '/api/users?cursor=abc',
  '/api/users?cursor=&page=2',
  '/api/users?page=2&limit=5',
  '/api/nope',
  '/api/_meta/nope',
  '/api/_explain/users?filter[nope]=1',
];
