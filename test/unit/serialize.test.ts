// Unit tests of writing a body in slices: whatever the slices, the joined chunks are exactly
// JSON.stringify of the whole body, and records shaped in slices are the records shaped at once.

import { expect } from 'chai';
import { serializeInSlices, Slices } from '../../plugin/respond';
import { ONE_PIECE_BYTES } from '../../plugin/respond/serialize';

/** Ends a slice after every record, the most a long response is ever cut. */
class EveryRecord extends Slices {
  override due(): boolean {
    return true;
  }
}

const records = [
  { id: 1, name: 'Ann "the first"', tags: ['a', 'b'], posts: [{ id: 10, title: 'x\u2028y' }] },
  { id: 2, name: 'B\u{1F600}b', at: new Date(Date.UTC(2025, 0, 2)), extra: undefined, nested: { deep: [null, 1.5] } },
  { id: 3, name: null, lone: '\ud800' },
];

const bodies: Record<string, unknown> = {
  'a bare array': records,
  'an empty array': [],
  'an envelope with keys before and after data': { current_page: 1, data: records, from: 1, total_is_estimate: undefined, to: 3 },
  'an envelope whose data comes first': { data: records, path: 'http://h/api/users', next_cursor: null },
  'an envelope with no records': { current_page: 1, data: [], links: [{ url: null, label: '&laquo; Previous', active: false }] },
};

describe('respond: serialising in slices', () => {
  for (const [name, body] of Object.entries(bodies)) {
    for (const [how, slices] of [
      ['in one slice', () => new Slices()],
      ['a slice per record', () => new EveryRecord()],
    ] as const) {
      it(`writes ${name} as JSON.stringify does, ${how}`, async () => {
        const chunks = await serializeInSlices(body as { data: unknown[] }, slices());
        expect(chunks.join('')).to.equal(JSON.stringify(body));
      });
    }
  }

  it('writes a body read as small in one piece, without giving way, and a large one record by record', async () => {
    const body = { current_page: 1, data: records, to: 3 };
    const small = new EveryRecord();
    expect(await serializeInSlices(body, small, ONE_PIECE_BYTES)).to.deep.equal([JSON.stringify(body)]);
    expect(small.yielded).to.equal(0);
    const large = new EveryRecord();
    const chunks = await serializeInSlices(body, large, ONE_PIECE_BYTES + 1);
    expect(large.yielded).to.equal(records.length);
    expect(chunks.join('')).to.equal(JSON.stringify(body));
  });

  it('gives way after each slice, and the joined chunks are still the whole text', async () => {
    const slices = new EveryRecord();
    const body = { current_page: 1, data: records, to: 3 };
    const chunks = await serializeInSlices(body, slices);
    expect(slices.yielded).to.equal(records.length);
    expect(chunks.join('')).to.equal(JSON.stringify(body));
  });
});
