// Owns the generation of the demo rows (users, posts, comments, phones, roles, user_roles) from a seed: a pure
// function with no database access, so the same seed always yields the same rows.
import { createPrng, type Prng } from './prng';
import { BODY_SENTENCES, FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS, ROLE_DESCRIPTIONS, TITLE_PATTERNS, TITLE_TOPICS } from './seed-words';

export interface UserRow {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly email_verified_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly status: string;
  readonly role: string;
  readonly score: string | null;
  readonly is_admin: boolean;
  readonly birthday: string | null;
}

export interface PostRow {
  readonly id: number;
  readonly user_id: number;
  readonly title: string;
  readonly body: string | null;
  readonly status: 'draft' | 'published' | 'archived';
  readonly views: number;
  readonly created_at: string;
}

export interface CommentRow {
  readonly id: number;
  readonly post_id: number;
  readonly author_id: number;
  readonly body: string;
  readonly created_at: string;
}

export interface PhoneRow {
  readonly id: number;
  readonly user_id: number;
  readonly number: string;
  readonly kind: string | null;
}

export interface RoleRow {
  readonly name: string;
  readonly description: string;
}

export interface UserRoleRow {
  readonly user_id: number;
  readonly role_name: string;
}

export interface SeedData {
  readonly users: readonly UserRow[];
  readonly posts: readonly PostRow[];
  readonly comments: readonly CommentRow[];
  readonly phones: readonly PhoneRow[];
  readonly roles: readonly RoleRow[];
  readonly userRoles: readonly UserRoleRow[];
}

export const DEFAULT_SEED = 20250417;
export const DEFAULT_USER_COUNT = 300;

// Instants are whole microseconds since the epoch: below 2^53 until year 2255, so exact in a number.
const US_PER_DAY = 86_400_000_000;
const RANGE_START = Date.UTC(2024, 0, 1) * 1000;
const RANGE_END = Date.UTC(2026, 0, 1) * 1000 - 1; // 2025-12-31T23:59:59.999999Z
const APRIL_2025_START = Date.UTC(2025, 3, 1) * 1000;
const APRIL_2025_END = Date.UTC(2025, 4, 1) * 1000 - 1;

/** Formats microseconds since the epoch. Example: `isoMicros(…)` → '2025-04-17T01:19:49.123456Z'. */
export function isoMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const micro = String(us - ms * 1000).padStart(3, '0');
  return new Date(ms).toISOString().replace('Z', `${micro}Z`);
}

function instantBetween(rng: Prng, from: number, to: number): number {
  return from + Math.floor(rng.next() * (to - from + 1));
}

function asciiSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
}

function makeEmail(first: string, last: string, rng: Prng, taken: Map<string, number>): string {
  const local = `${asciiSlug(first)}.${asciiSlug(last)}`;
  const domain = rng.pick(MAIL_DOMAINS);
  const base = `${local}@${domain}`;
  const seen = taken.get(base) ?? 0;
  taken.set(base, seen + 1);
  return seen === 0 ? base : `${local}${seen + 1}@${domain}`;
}

function makeUser(id: number, rng: Prng, taken: Map<string, number>): { user: UserRow; createdUs: number } {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const inApril = rng.chance(0.08);
  const created = inApril ? instantBetween(rng, APRIL_2025_START, APRIL_2025_END) : instantBetween(rng, RANGE_START, RANGE_END);
  const updated = rng.chance(0.3) ? created : Math.min(RANGE_END, created + Math.floor(rng.next() * 200 * US_PER_DAY));
  const verified = rng.chance(0.2) ? null : Math.min(RANGE_END, created + Math.floor(rng.next() * 3 * US_PER_DAY));
  const role = rng.weighted({ admin: 8, editor: 17, writer: 35, guest: 40 });
  const birthday = rng.chance(0.3)
    ? null
    : isoMicros(instantBetween(rng, Date.UTC(1950, 0, 1) * 1000, Date.UTC(2006, 11, 31) * 1000)).slice(0, 10);
  const user: UserRow = {
    id,
    name: `${first} ${last}`,
    email: makeEmail(first, last, rng, taken),
    email_verified_at: verified === null ? null : isoMicros(verified),
    created_at: isoMicros(created),
    updated_at: isoMicros(updated),
    status: rng.weighted({ active: 55, pending: 20, banned: 10, guest: 15 }),
    role,
    score: rng.chance(0.15) ? null : (rng.int(0, 100_000) / 100).toFixed(2),
    is_admin: role === 'admin',
    birthday,
  };
  return { user, createdUs: created };
}

function makeTitle(rng: Prng): string {
  const topic = rng.pick(TITLE_TOPICS);
  const capitalised = topic.charAt(0).toUpperCase() + topic.slice(1);
  return rng.pick(TITLE_PATTERNS).replace('{t}', topic).replace('{T}', capitalised);
}

function makePosts(user: UserRow, createdUs: number, rng: Prng): Array<Omit<PostRow, 'id'>> {
  const count = rng.int(0, 6);
  const posts: Array<Omit<PostRow, 'id'>> = [];
  for (let i = 0; i < count; i += 1) {
    const status = rng.weighted({ published: 60, draft: 25, archived: 15 });
    const body = rng.chance(0.15) ? null : [rng.pick(BODY_SENTENCES), rng.pick(BODY_SENTENCES)].join(' ');
    posts.push({
      user_id: user.id,
      title: makeTitle(rng),
      body,
      status,
      views: status === 'draft' ? 0 : rng.int(0, status === 'published' ? 5000 : 2000),
      created_at: isoMicros(instantBetween(rng, createdUs, RANGE_END)),
    });
  }
  return posts;
}

/**
 * Comments come from their own generator (seeded from `seed`), drawn after everything else, so adding
 * them left every user, post, phone and role of the same seed as it was.
 */
function makeComments(seed: number, users: readonly UserRow[], posts: readonly PostRow[]): CommentRow[] {
  const rng = createPrng(seed ^ 0x5eed_c0de);
  const unnumbered: Array<Omit<CommentRow, 'id'>> = [];
  for (const post of posts) {
    const count = rng.int(0, 4);
    // Milliseconds are enough here: a comment comes at least a millisecond after its post.
    const postedUs = Date.parse(post.created_at) * 1000 + 1000;
    for (let i = 0; i < count; i += 1) {
      const author = rng.pick(users);
      unnumbered.push({
        post_id: post.id,
        author_id: author.id,
        body: rng.pick(BODY_SENTENCES),
        created_at: isoMicros(instantBetween(rng, postedUs, Math.max(postedUs, RANGE_END))),
      });
    }
  }
  unnumbered.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.post_id - b.post_id));
  return unnumbered.map((comment, index) => ({ id: index + 1, ...comment }));
}

function makePhone(id: number, userId: number, rng: Prng): PhoneRow {
  const digits = (n: number): string => String(rng.int(0, 10 ** n - 1)).padStart(n, '0');
  const number = `+1 555-${digits(3)}-${digits(4)}`;
  const kind = rng.weighted({ mobile: 60, home: 20, work: 15, none: 5 });
  return {
    id,
    user_id: userId,
    number,
    kind: kind === 'none' ? null : kind,
  };
}

function makeUserRoles(user: UserRow, rng: Prng): UserRoleRow[] {
  const links: UserRoleRow[] = [{ user_id: user.id, role_name: user.role }];
  if (rng.chance(0.35)) {
    const other = rng.pick(Object.keys(ROLE_DESCRIPTIONS).filter((name) => name !== user.role));
    links.push({ user_id: user.id, role_name: other });
  }
  return links;
}

/**
 * Generates the demo rows. Posts get ids in creation order, like a real table would.
 * Example: `generateSeedData().users.length === 300`, identical on every call.
 */
export function generateSeedData(seed: number = DEFAULT_SEED, userCount: number = DEFAULT_USER_COUNT): SeedData {
  const rng = createPrng(seed);
  const taken = new Map<string, number>();
  const users: UserRow[] = [];
  const unnumbered: Array<Omit<PostRow, 'id'>> = [];
  const phones: PhoneRow[] = [];
  const userRoles: UserRoleRow[] = [];
  for (let id = 1; id <= userCount; id += 1) {
    const { user, createdUs } = makeUser(id, rng, taken);
    users.push(user);
    unnumbered.push(...makePosts(user, createdUs, rng));
    if (rng.chance(0.5)) phones.push(makePhone(phones.length + 1, id, rng));
    userRoles.push(...makeUserRoles(user, rng));
  }
  // ISO strings of one fixed format sort chronologically; the user id breaks ties.
  unnumbered.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.user_id - b.user_id));
  const posts = unnumbered.map((post, index) => ({ id: index + 1, ...post }));
  const roles = Object.entries(ROLE_DESCRIPTIONS).map(([name, description]) => ({ name, description }));
  const comments = makeComments(seed, users, posts);
  return { users, posts, comments, phones, roles, userRoles };
}
