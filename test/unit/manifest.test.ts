// The plugin manifest: plugin.json at the repository root agrees with package.json and names only
// files that exist (run after `npm run build`, so dist/ paths are checked too).

import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { optionsSchema } from '../../plugin/options-schema';

const root = resolve(__dirname, '..', '..', '..');

function readJson(file: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(readFileSync(join(root, file), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

/**
 * Every string in the manifest that looks like a repository-relative file path: no spaces, no URL
 * scheme, no leading slash (route prefixes such as /api are not files), and a directory or extension.
 */
function pathsIn(value: unknown, at: string, out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') {
    const looksLikePath =
      /^\.{0,2}\/?[A-Za-z0-9_.@-]+(\/[A-Za-z0-9_.@-]+)*\/?$/.test(value) &&
      !value.startsWith('/') &&
      (value.includes('/') || /\.[A-Za-z]{1,5}$/.test(value));
    if (looksLikePath) out.push([at, value]);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => pathsIn(item, `${at}[${i}]`, out));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) pathsIn(item, `${at}.${key}`, out);
  }
  return out;
}

describe('plugin.json manifest', function () {
  it('exists at the repository root and is a JSON object', function () {
    expect(existsSync(join(root, 'plugin.json')), 'plugin.json').to.equal(true);
    expect(() => readJson('plugin.json')).to.not.throw();
  });

  it('publishes the same options schema the plugin checks its options against', function () {
    expect(readJson('plugin.json').optionsSchema).to.deep.equal(JSON.parse(JSON.stringify(optionsSchema)));
  });

  it('has the version of package.json', function () {
    const manifest = readJson('plugin.json');
    const pkg = readJson('package.json');
    expect(manifest.version).to.be.a('string');
    expect(manifest.version).to.equal(pkg.version);
  });

  it('is identified by the package name when it carries an id', function () {
    const manifest = readJson('plugin.json');
    const pkg = readJson('package.json');
    if ('id' in manifest) expect(manifest.id).to.equal(pkg.name);
  });

  it('names at least one file, and every file it names exists', function () {
    const paths = pathsIn(readJson('plugin.json'), 'plugin.json');
    expect(paths, 'paths named by plugin.json').to.not.be.empty;
    const missing = paths.filter(([, path]) => !existsSync(join(root, path)));
    expect(
      missing.map(([at, path]) => `${at} = ${path}`),
      'missing files',
    ).to.deep.equal([]);
  });

  it('names only files the package ships (inside package.json files)', function () {
    const shipped = readJson('package.json').files as string[];
    const outside = pathsIn(readJson('plugin.json'), 'plugin.json').filter(
      ([, path]) => !shipped.some((entry) => path === entry || path.startsWith(`${entry}/`)),
    );
    expect(
      outside.map(([at, path]) => `${at} = ${path}`),
      'not in package.json files',
    ).to.deep.equal([]);
  });

  it('names the built admin UI and its default path, as the admin option serves them', function () {
    const manifest = readJson('plugin.json');
    const entries = manifest.entries as Record<string, unknown>;
    const routes = manifest.routes as Record<string, unknown>;
    expect(entries.admin, 'entries.admin').to.equal('dist/admin-ui');
    expect(existsSync(join(root, 'dist', 'admin-ui', 'index.html')), 'dist/admin-ui/index.html').to.equal(true);
    expect(routes.admin, 'routes.admin').to.equal(optionsSchema.properties.admin.oneOf[1].properties.path.default);
    expect(routes.prefix, 'routes.prefix').to.equal(optionsSchema.properties.prefix.default);
  });

  it('is shipped with the package', function () {
    const pkg = readJson('package.json');
    expect(pkg.files, 'package.json files').to.be.an('array').that.includes('plugin.json');
  });

  it("package.json's entry points exist", function () {
    const pkg = readJson('package.json');
    for (const key of ['main', 'types']) {
      const path = pkg[key];
      expect(path, key).to.be.a('string');
      expect(existsSync(join(root, String(path))), `${key} = ${String(path)}`).to.equal(true);
    }
  });
});
