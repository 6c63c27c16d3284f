// The envelopes' keys in the order clients see them, written once for every suite: Laravel's length
// aware paginator, with `total_is_estimate` last for `total=estimated`, its simple paginator
// (`total=none`) and its cursor paginator (docs/query-language.md, "The envelope"). Written out here, not
// read from the plugin, so a change of order in the plugin fails the suites.

export const ENVELOPE_KEYS: readonly string[] = [
  'current_page',
  'data',
  'first_page_url',
  'from',
  'last_page',
  'last_page_url',
  'links',
  'next_page_url',
  'path',
  'per_page',
  'prev_page_url',
  'to',
  'total',
];

export const ESTIMATED_ENVELOPE_KEYS: readonly string[] = [...ENVELOPE_KEYS, 'total_is_estimate'];

export const SIMPLE_ENVELOPE_KEYS: readonly string[] = [
  'current_page',
  'data',
  'first_page_url',
  'from',
  'next_page_url',
  'path',
  'per_page',
  'prev_page_url',
  'to',
];

export const CURSOR_ENVELOPE_KEYS: readonly string[] = [
  'data',
  'path',
  'per_page',
  'next_cursor',
  'next_page_url',
  'prev_cursor',
  'prev_page_url',
];
