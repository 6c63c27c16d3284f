// WAL positions (PostgreSQL's pg_lsn, written `16/B374D848`) as numbers that compare.

/**
 * `'16/B374D848'` -> `0x16B374D848n`; undefined for anything that is not a WAL position (a host's
 * cookie may hold anything, so this never throws).
 */
export function parseLsn(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (match === null) return undefined;
  return (BigInt(`0x${match[1] as string}`) << 32n) | BigInt(`0x${match[2] as string}`);
}

/** `0x16B374D848n` -> `'16/B374D848'`, the form PostgreSQL prints. */
export function formatLsn(position: bigint): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}
