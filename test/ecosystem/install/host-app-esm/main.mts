// An ES module host (TypeScript, module nodenext) reading the plugin's manifest as docs/installing.md
// shows: a JSON module needs the `with { type: 'json' }` import attribute (Node.js 20.10 and later).
import manifest from 'koa-query-modifiers/plugin.json' with { type: 'json' };
import { queryModifiers, type QueryModifiersOptions } from 'koa-query-modifiers';

const settings: Partial<QueryModifiersOptions> = { prefix: manifest.routes.prefix, maxRows: 500 };
console.log(JSON.stringify({ id: manifest.id, prefix: settings.prefix, admin: manifest.routes.admin, plugin: typeof queryModifiers }));
