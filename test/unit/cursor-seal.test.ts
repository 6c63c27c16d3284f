// Sealed cursors (docs/query-language.md, "Cursors: cursor"): a cursor opens only for the collection
// it was sealed for, with a key of the secret (or of a secret still listed after a rotation), and any
// change to any of its bytes makes it not open. Its length tells the content's only to 32 bytes.

import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import fc from 'fast-check';
import { createCursorSeal, CURSOR_BLOCK } from '../../plugin/cursor-seal';
import type { CursorToken } from '../../plugin/syntax';

const OLD = 'the secret cursors were sealed with until today';
const NEW = 'the secret cursors are sealed with from today on';
const TOKEN: CursorToken = { sort: ['email:asc', 'id:asc'], direction: 'next', at: ['ada@example.com', '7'] };

/** The bytes a sealed cursor carries besides its padded content: the nonce and the tag. */
const OVERHEAD = 12 + 16;

describe('sealed cursors', function () {
  const seal = createCursorSeal(NEW);

  it('opens what it sealed, for the same collection, and holds nothing readable', function () {
    const text = seal.seal('users', TOKEN);
    expect(text).to.match(/^[A-Za-z0-9_-]+$/);
    expect(seal.open('users', text)).to.deep.equal(TOKEN);
    expect(seal.open('users', seal.seal('users', { ...TOKEN, direction: 'prev', at: null }))).to.deep.equal({
      ...TOKEN,
      direction: 'prev',
      at: null,
    });
    const bytes = Buffer.from(text, 'base64url').toString('latin1');
    for (const part of ['ada', 'example', 'email', '"7"', 'next']) expect(bytes).to.not.include(part);
    expect(text).to.not.include('ada');
  });

  it('refuses a cursor with any byte changed, cut short or made longer', function () {
    const bytes = Buffer.from(seal.seal('users', TOKEN), 'base64url');
    for (let at = 0; at < bytes.length; at++) {
      for (const bit of [0x01, 0x80]) {
        const tampered = Buffer.from(bytes);
        tampered[at] = (tampered[at] ?? 0) ^ bit;
        expect(seal.open('users', tampered.toString('base64url')), `byte ${at}`).to.equal(undefined);
      }
    }
    expect(seal.open('users', bytes.subarray(0, bytes.length - 1).toString('base64url'))).to.equal(undefined);
    expect(seal.open('users', bytes.subarray(0, bytes.length - CURSOR_BLOCK).toString('base64url'))).to.equal(undefined);
    expect(seal.open('users', Buffer.concat([bytes, Buffer.alloc(CURSOR_BLOCK)]).toString('base64url'))).to.equal(undefined);
    const text = bytes.toString('base64url');
    // Another spelling of the same bytes (trailing bits, padding) is not the cursor either.
    for (const spelling of [`${text}=`, `${text} `, ` ${text}`, text.replace(/[-_]/g, (c) => (c === '-' ? '+' : '/'))]) {
      if (spelling !== text) expect(seal.open('users', spelling), spelling).to.equal(undefined);
    }
  });

  it('refuses a cursor sealed for another collection, or with another secret', function () {
    const text = seal.seal('users', TOKEN);
    expect(seal.open('posts', text)).to.equal(undefined);
    expect(seal.open('user', text)).to.equal(undefined);
    expect(createCursorSeal(OLD).open('users', text)).to.equal(undefined);
    expect(createCursorSeal(`${NEW}!`).open('users', text)).to.equal(undefined);
  });

  it('rotates: the first secret of a list seals, every one opens', function () {
    const before = createCursorSeal(OLD);
    const during = createCursorSeal([NEW, OLD]);
    const after = createCursorSeal(NEW);
    const old = before.seal('users', TOKEN);
    expect(during.open('users', old), 'an old cursor during the rotation').to.deep.equal(TOKEN);
    const fresh = during.seal('users', TOKEN);
    expect(fresh, 'sealed with the new secret').to.equal(after.seal('users', TOKEN));
    expect(after.open('users', fresh)).to.deep.equal(TOKEN);
    expect(before.open('users', fresh), 'the old secret does not open a new cursor').to.equal(undefined);
    expect(after.open('users', old), 'an old cursor once the old secret is gone').to.equal(undefined);
  });

  it('pads the content to a multiple of 32 bytes: lengths tell nothing finer', function () {
    const lengths = new Map<number, number>();
    for (let n = 0; n <= 200; n++) {
      const token: CursorToken = { sort: ['name:asc', 'id:asc'], direction: 'next', at: ['x'.repeat(n), '1'] };
      const content = Buffer.byteLength(JSON.stringify([token.direction, token.sort, token.at]));
      const sealed = Buffer.from(seal.seal('users', token), 'base64url').length - OVERHEAD;
      expect(sealed % CURSOR_BLOCK, `content of ${content} bytes`).to.equal(0);
      expect(sealed).to.be.above(content);
      expect(sealed - content).to.be.at.most(CURSOR_BLOCK);
      lengths.set(sealed, (lengths.get(sealed) ?? 0) + 1);
      expect(seal.open('users', seal.seal('users', token))).to.deep.equal(token);
    }
    // Every length is a whole block: 201 contents of 35 to 235 bytes come out in 7 lengths.
    expect([...lengths.keys()]).to.deep.equal([64, 96, 128, 160, 192, 224, 256]);
  });

  it('opens a cursor it sealed lately as one it sealed long ago, and as another instance with the secret does', function () {
    const tokens = Array.from({ length: 3000 }, (_, i): CursorToken => ({ ...TOKEN, at: [`${i}@example.com`, String(i)] }));
    const texts = tokens.map((token) => seal.seal('users', token));
    const elsewhere = createCursorSeal(NEW);
    for (const i of [0, 1, 1500, 2998, 2999]) {
      expect(seal.open('users', texts[i] ?? ''), `cursor ${i}`).to.deep.equal(tokens[i]);
      expect(elsewhere.open('users', texts[i] ?? ''), `cursor ${i} elsewhere`).to.deep.equal(tokens[i]);
      expect(seal.open('posts', texts[i] ?? ''), `cursor ${i} for posts`).to.equal(undefined);
      expect(elsewhere.seal('users', tokens[i] as CursorToken)).to.equal(texts[i]);
    }
    expect(Object.isFrozen(seal.open('users', texts[2999] ?? ''))).to.equal(true);
  });

  it('gives the same cursor for the same position, and another for another', function () {
    expect(seal.seal('users', TOKEN)).to.equal(seal.seal('users', TOKEN));
    expect(seal.seal('users', TOKEN)).to.not.equal(seal.seal('posts', TOKEN));
    expect(seal.seal('users', TOKEN)).to.not.equal(seal.seal('users', { ...TOKEN, at: ['ada@example.com', '8'] }));
    expect(seal.seal('users', TOKEN)).to.not.equal(seal.seal('users', { ...TOKEN, direction: 'prev' }));
  });

  it('without a secret, seals with a random key of this process', function () {
    const mine = createCursorSeal(undefined);
    expect(mine.ephemeral).to.equal(true);
    expect(seal.ephemeral).to.equal(false);
    const text = mine.seal('users', TOKEN);
    expect(createCursorSeal(undefined).open('users', text), 'another mount of this process').to.deep.equal(TOKEN);
    expect(seal.open('users', text)).to.equal(undefined);
    // Another process draws another key: its cursor for the same position differs and does not open here.
    const script = `const {createCursorSeal} = require(${JSON.stringify(require.resolve('../../plugin/cursor-seal'))});
      process.stdout.write(createCursorSeal(undefined).seal('users', ${JSON.stringify(TOKEN)}))`;
    const elsewhere = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(elsewhere).to.match(/^[A-Za-z0-9_-]{80,}$/);
    expect(elsewhere).to.not.equal(text);
    expect(mine.open('users', elsewhere)).to.equal(undefined);
  });

  it('never throws on any text, and opens none it did not seal', function () {
    const sealed = seal.seal('users', TOKEN);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('base64url')),
          // The cursor cut short, or with more after it.
          fc
            .nat({ max: 2 * sealed.length })
            .map((n) => (n <= sealed.length ? sealed.slice(0, n) : `${sealed}${sealed.slice(0, n - sealed.length)}`)),
        ),
        (text) => {
          expect(seal.open('users', text)).to.deep.equal(text === sealed ? TOKEN : undefined);
        },
      ),
      { seed: 48, numRuns: 2000 },
    );
  });
});
