// Where the demo server listens: the port and bind address read from PORT and HOST, and the origin
// it prints for them.

/** `PORT`, by default 3000; 0 picks a free port. */
export function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer 0-65535, got "${value}"`);
  return port;
}

/**
 * The address to bind: `HOST`, by default 127.0.0.1 (the demo answers this machine only: it has no
 * token unless API_TOKEN is set). `0.0.0.0` or `::` serve every interface, as in a container.
 */
export function readHost(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return '127.0.0.1';
  return value.trim();
}

/** `http://127.0.0.1:3000`; every interface is shown as localhost, an IPv6 address in brackets. */
export function displayOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
