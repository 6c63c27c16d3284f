// The injection corpus, one test per entry, in each role a client controls: field name (every
// modifier and its alias form), alias, relation name and value. Each request goes through the checks
// of hostile-harness.ts; above all, the entry's marker never appears in a statement's SQL text.

import { expect } from 'chai';
import { codeOf, enc, MARK, useHostileApps } from './hostile-harness';

describe('injection corpus (reliability)', function () {
  const h = useHostileApps();

  const corpus: readonly string[] = [
    `${MARK}'; drop table users; --`,
    `${MARK}' or '1'='1`,
    `${MARK}" or "1"="1`,
    `${MARK}) or (1=1`,
    `${MARK}/* comment */`,
    `${MARK} -- comment`,
    `${MARK}; select pg_sleep(5)`,
    `${MARK}\\'; select 1; --`,
    `${MARK}$$; select 1; $$`,
    `${MARK}?`,
    `${MARK}??`,
    `:${MARK}`,
    `${MARK}$1`,
    `${MARK}\``,
    `${MARK}\\`,
    `users.${MARK}`,
    `${MARK} union select password_hash from users`,
    `${MARK}' || (select password_hash from users limit 1) || '`,
    `${MARK}::text`,
    `${MARK}\r\nX-Injected: 1`,
    `${MARK}<script>alert(1)</script>`,
    `${MARK}\${7*7}{{7*7}}`,
    `${MARK} \u{1F600} \u00e9`,
    `${MARK}%_`,
    `${MARK}\u0000`,
  ];
  const printable = (s: string): string => JSON.stringify(s.replace(MARK, '<MARK>'));
  const quoted = (s: string): string => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

  describe('injection corpus: field names', function () {
    for (const name of corpus) {
      it(printable(name), async function () {
        const n = enc(name);
        for (const query of [
          `filter[${n}]=1`,
          `filter[or+${n}]=1`,
          `in[${n}]=1`,
          `between[${n}]=1,2`,
          `search[${n}]=a`,
          `search[name,${n}]=a`,
          `sort[${n}]=asc`,
          `fields=${n}`,
          `fields!=${n}`,
          `expand[posts]=p&p_filter[${n}]=1`,
          `expand[posts]=p&p_fields=${n}`,
          `expand[posts]=p&p_sort[${n}]`,
        ]) {
          const res = await h.send(query);
          expect(res.status, query).to.equal(400);
          expect(codeOf(res), query).to.be.oneOf(['FIELD_NOT_ALLOWED', 'MALFORMED_PARAMETER']);
        }
      });
    }
  });

  describe('injection corpus: aliases', function () {
    for (const alias of corpus) {
      it(printable(alias), async function () {
        const a = enc(alias);
        const declared = await h.send(`expand[posts]=${a}`);
        expect(codeOf(declared)).to.equal('MALFORMED_PARAMETER');
        const used = await h.send(`expand[posts]=${a}&${a}_fields=id&${a}_filter[id]=1`);
        expect(used.status).to.equal(400);
        const undeclared = await h.send(`${a}_fields=id&${a}_sort[id]`);
        // Not of the alias shape -> ignored (200); of the shape -> UNKNOWN_ALIAS or MALFORMED_PARAMETER.
        if (undeclared.status !== 200) expect(codeOf(undeclared)).to.be.oneOf(['UNKNOWN_ALIAS', 'MALFORMED_PARAMETER']);
      });
    }
  });

  describe('injection corpus: relation names', function () {
    for (const relation of corpus) {
      it(printable(relation), async function () {
        const r = enc(relation);
        for (const query of [`expand[${r}]`, `expand[${r}]=p`, `expand[${r}]=p&p_fields=id`]) {
          const res = await h.send(query);
          expect(codeOf(res), query).to.be.oneOf(['UNKNOWN_RELATION', 'MALFORMED_PARAMETER']);
        }
        expect(codeOf(await h.send(`expand[${r}]`, 'strict', 'posts'))).to.be.oneOf(['UNKNOWN_RELATION', 'MALFORMED_PARAMETER']);
        expect(codeOf(await h.send(`expand[${r}]`, 'strict', 'roles'))).to.be.oneOf(['UNKNOWN_RELATION', 'MALFORMED_PARAMETER']);
      });
    }
  });

  describe('injection corpus: values', function () {
    for (const value of corpus) {
      it(printable(value), async function () {
        const hasNul = value.includes('\u0000');
        const v = enc(value);
        const q = enc(quoted(value));
        for (const query of [
          `filter[name]=${v}`,
          `filter[name]=${q}`,
          `filter[or+email]=%3C%3E${q}&filter[and+name]=${q}`,
          `in[name]=${q},${q}`,
          `between[name]=${q},${q}`,
          `search[name,email]=${v}`,
          `search[name]=*${v}*`,
          `expand[posts]=p&p_filter[title]=${q}&fields=id`,
          `expand[posts]=p&p_search[title]=${v}&fields=id`,
          `expand[roles]=r&r_in[name]=${q}&fields=id`,
        ]) {
          const res = await h.send(query);
          if (hasNul) {
            expect(codeOf(res), query).to.equal('INVALID_VALUE');
            continue;
          }
          expect(res.status, `${query}: ${res.text.slice(0, 200)}`).to.equal(200);
          const rows = res.body as Record<string, unknown>[];
          if (query.startsWith('expand')) {
            // Alias clauses choose related records only: every user, none of their posts or roles.
            expect(rows.length, query).to.equal(23);
            const related = rows.flatMap((r): unknown[] => (Array.isArray(r.posts) ? r.posts : Array.isArray(r.roles) ? r.roles : []));
            expect(related, query).to.deep.equal([]);
          } else {
            expect(rows, query).to.deep.equal([]);
          }
        }
        for (const query of [`filter[id]=${v}`, `in[id]=${q}`, `between[created_at]=${q},${q}`, `filter[active]=${v}`]) {
          expect(codeOf(await h.send(query)), query).to.equal('INVALID_VALUE');
        }
        expect(codeOf(await h.send(`sort[name]=${v}`))).to.equal('MALFORMED_PARAMETER');
      });
    }
  });
});
