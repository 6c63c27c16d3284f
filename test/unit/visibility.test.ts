// The start-up probe of a model's own JSON (plugin/schema/visibility.ts): what it learns from each
// kind of conversion, and the kind it cannot see
// (docs/configuration.md, "What your model's JSON hides or masks"). No database: fromJson and
// toJSON need none.

import { expect } from 'chai';
import { Model, type ModelObject, type ModelOptions, type Pojo, type ToJsonOptions } from 'objection';
import type { Column, ColumnType } from '../../plugin/schema';
import { probeVisibility } from '../../plugin/schema/visibility';

const field = (name: string, type: ColumnType, extra: Partial<Column> = {}): Column => ({
  name,
  column: type === 'virtual' ? '' : name,
  table: 'accounts',
  type,
  nullable: true,
  udt: type,
  orderable: true,
  ...extra,
});

const fields: readonly Column[] = [
  field('id', 'uuid'),
  field('email', 'text'),
  field('passwordHash', 'text'),
  field('active', 'boolean'),
  field('visits', 'bigint'),
  field('score', 'numeric'),
  field('createdAt', 'timestamptz'),
  field('birthday', 'date'),
  field('settings', 'json'),
  field('mood', 'enum', { labels: ['calm', 'busy'] }),
  field('tags', 'array', { elementType: 'text' }),
];

/** What the probe finds for a model, as sorted lists. */
function probe(model: typeof Model, of: readonly Column[] = fields): { hidden: string[]; masked: string[]; problems: string[] } {
  const problems: string[] = [];
  const found = probeVisibility(model, of, problems);
  return { hidden: [...found.hidden].sort(), masked: [...found.masked].sort(), problems };
}

class Plain extends Model {
  static override tableName = 'accounts';
}

describe('schema: the probe of a model’s own JSON', function () {
  it('leaves a model that customises nothing alone', function () {
    expect(probe(Plain)).to.deep.equal({ hidden: [], masked: [], problems: [] });
  });

  it('finds what $formatJson deletes, renames, masks or retypes, and what $omitFromJson leaves out', function () {
    class Redacting extends Plain {
      override $formatJson(json: Pojo): Pojo {
        const out = super.$formatJson(json);
        delete out.passwordHash;
        out.created = out.createdAt as unknown;
        delete out.createdAt;
        if (typeof out.email === 'string') out.email = out.email.replace(/^(.)[^@]*/, '$1***');
        out.visits = String(out.visits);
        return out;
      }
      override $setJson(json: object, options?: ModelOptions): this {
        super.$setJson(json, options);
        return this.$omitFromJson('birthday');
      }
    }
    expect(probe(Redacting)).to.deep.equal({
      hidden: ['birthday', 'createdAt', 'passwordHash'],
      masked: ['email', 'visits'],
      problems: [],
    });
  });

  it('sees an overridden toJSON, and a virtual attribute it removes', function () {
    class Rebuilt extends Plain {
      static override virtualAttributes = ['label', 'initial'];
      get label(): string {
        return `${String((this as unknown as Pojo).email)}!`;
      }
      get initial(): string {
        return String((this as unknown as Pojo).email).slice(0, 1);
      }
      override toJSON(options?: ToJsonOptions): ModelObject<this> {
        const json = { ...(super.toJSON(options) as Pojo) };
        delete json.initial;
        json.score = `~${String(json.score)}`;
        return json as ModelObject<this>;
      }
    }
    const withVirtuals = [...fields, field('label', 'virtual'), field('initial', 'virtual')];
    expect(probe(Rebuilt, withVirtuals)).to.deep.equal({ hidden: ['initial'], masked: ['score'], problems: [] });
  });

  it('sees a removal that depends on a boolean, and a mask that touches only digits, through one of its two records', function () {
    class Conditional extends Plain {
      override $formatJson(json: Pojo): Pojo {
        const out = super.$formatJson(json);
        if (out.active === false) delete out.id;
        if (typeof out.email === 'string') out.email = out.email.replace(/\d{5,}/g, '*****');
        return out;
      }
    }
    expect(probe(Conditional)).to.deep.equal({ hidden: ['id'], masked: ['email'], problems: [] });
  });

  it('cannot see a mask that no probe value triggers (documented: name such fields yourself)', function () {
    class OneDomain extends Plain {
      override $formatJson(json: Pojo): Pojo {
        const out = super.$formatJson(json);
        if (typeof out.email === 'string' && out.email.endsWith('@internal.example')) out.email = 'hidden';
        return out;
      }
    }
    expect(probe(OneDomain)).to.deep.equal({ hidden: [], masked: [], problems: [] });
  });

  it('makes a conversion that throws a start-up problem naming the model', function () {
    class Throwing extends Plain {
      override $formatJson(json: Pojo): Pojo {
        return { ...super.$formatJson(json), parsed: JSON.parse(String(json.email)) as unknown };
      }
    }
    const { problems } = probe(Throwing);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^Throwing: its own JSON conversion \(\$formatJson, toJSON\) threw on a probe record \(/);
  });
});
